import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enqueueMessages } from '../../src/delivery/outbox';
import { payloadSealer } from '../../src/lib/payload-sealer';
import { cliArguments, ROOT } from '../support/cli';
import { openTestStore } from '../support/stores';

test('school-service delivery-status prints the outbox counts by state', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'school-status-'));
  try {
    const store = await openTestStore({ DATA_DIR: folder });
    const sealer = payloadSealer(randomBytes(32));
    await enqueueMessages(
      store,
      [1, 2, 3].map((index) => ({
        channel: 'sms' as const,
        recipient: `+96650000000${index}`,
        content: { text: `verification code 123${index}` },
      })),
      'ref',
      new Date(),
      sealer,
    );
    await store.db.updateTable('outbox_messages').set({ state: 'sent' }).where('id', '=', 1).execute();
    await store.db.updateTable('outbox_messages').set({ state: 'failed' }).where('id', '=', 2).execute();
    await store.close();
    const run = (...args: string[]) =>
      execFileSync(process.execPath, cliArguments('delivery-status', ...args), {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '' },
        encoding: 'utf8',
      });
    expect(JSON.parse(run('--json'))).toEqual({ queued: 1, retrying: 0, sent: 1, failed: 1 });
    expect(run()).toContain('queued 1, retrying 0, sent 1, failed 1');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
