import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JOURNAL_FOLDER } from '../../src/audit/audit-journal';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, startProviderService, tokenFor, withToken } from '../support/provider-client';

/**
 * A consumer's write is answered only once its entry is in the audit journal's file, as a SOAP
 * call's is, so that a SIGKILL right after the answer cannot lose it from the trail: when the
 * answer arrives the entry is in the journal file or, once the trail's writer has taken the file,
 * in the store. Held only in memory, it would be in neither.
 */
describeEachEngine('the trail of a consumer’s write', (engine) => {
  let service: RunningService;
  let token: string;
  let dataDirectory: string;
  let ownDirectory: string | undefined;
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    ownDirectory = storeSettings.DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), 'school-write-trail-'));
    dataDirectory = storeSettings.DATA_DIR ?? (ownDirectory as string);
    await importSmallSchool(storeSettings);
    const started = await startProviderService(
      storeSettings,
      [{ name: 'lms', secret: true, operations: ['roster', 'gradebook'] }],
      { DATA_DIR: dataDirectory, AUDIT_FLUSH_MS: '1000' },
    );
    service = started.service;
    token = await tokenFor(service, 'lms', started.secrets.lms);
  });
  afterAll(async () => {
    await service.close();
    if (ownDirectory) rmSync(ownDirectory, { recursive: true, force: true });
  });

  /** The journal's lines and the store's entries of `operation`, read as the answer arrives. */
  const kept = async (operation: string) => {
    const folder = join(dataDirectory, JOURNAL_FOLDER);
    const inJournal = readdirSync(folder)
      .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n'))
      .filter((line) => line.includes(`"operation":"${operation}"`)).length;
    const stored = await service.store.db
      .selectFrom('audit_events')
      .select('calls')
      .where('operation', '=', operation)
      .execute();
    return inJournal + stored.reduce((sum, row) => sum + Number(row.calls), 0);
  };

  test('a PUT and a DELETE of a result are in the journal or the store when their answers arrive', async () => {
    for (let write = 1; write <= 3; write += 1) {
      const id = `r-trail-${write}`;
      const body = {
        result: { sourcedId: id, lineItem: { sourcedId: 'li2' }, student: { sourcedId: 's2' }, score: 7 },
      };
      const put = await withToken(service, token, `/ims/oneroster/gradebook/v1p2/results/${id}`, {
        method: 'PUT',
        body,
      });
      expect(put.status).toBe(201);
      expect(await kept('PUT results')).toBeGreaterThanOrEqual(write);
    }
    const removed = await withToken(service, token, '/ims/oneroster/gradebook/v1p2/results/r-trail-1', {
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    expect(await kept('DELETE results')).toBeGreaterThanOrEqual(1);
  });
});
