import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enqueueMessages } from '../../src/delivery/outbox';
import { loadOutboxKey, payloadSealer } from '../../src/lib/payload-sealer';
import { cliArguments, ROOT } from '../support/cli';
import { startFakeGateway } from '../support/fake-gateway';
import { openTestStore } from '../support/stores';

test('school-service delivery-worker delivers the outbox from a process of its own and stops on SIGTERM', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'school-worker-'));
  const gateway = await startFakeGateway();
  try {
    const store = await openTestStore({ DATA_DIR: folder });
    // The key file in the data folder is what the service and the worker command both use.
    const sealer = payloadSealer(loadOutboxKey(undefined, folder));
    await enqueueMessages(
      store,
      [1, 2].map((index) => ({
        channel: 'sms' as const,
        recipient: `+96650000000${index}`,
        content: { text: `verification code 555${index}` },
      })),
      'ref',
      new Date(),
      sealer,
    );
    await store.close();
    const worker = spawn(process.execPath, cliArguments('delivery-worker'), {
      cwd: ROOT,
      env: {
        ...process.env,
        DATA_DIR: folder,
        DATABASE_URL: '',
        SMS_GATEWAY_URL: `${gateway.url}/sms`,
        DELIVERY_POLL_MS: '50',
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    const requests = await gateway.waitForRequests(2, 30_000);
    expect(requests.map((request) => JSON.parse(request.body).text).sort()).toEqual([
      'verification code 5551',
      'verification code 5552',
    ]);
    const exitCode = await new Promise<number | null>((resolveExit) => {
      worker.once('exit', resolveExit);
      worker.kill('SIGTERM');
    });
    expect(exitCode).toBe(0);
  } finally {
    await gateway.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
