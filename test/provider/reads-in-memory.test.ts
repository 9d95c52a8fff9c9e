import { mkdtempSync, readdirSync, rmSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { idsOf, importSmallSchool, startProviderService, tokenFor, withToken } from '../support/provider-client';

/**
 * An LMS's reads leave nothing on disk: the records (names, e-mails, marks) are read from the
 * store row by row, never written to a temporary folder, whatever the collection or the query.
 */
const ROSTERING = '/ims/oneroster/rostering/v1p2';

describeEachEngine('the provider reads without temporary files', (engine) => {
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    const started = await startProviderService(storeSettings, [
      { name: 'lms', secret: true, operations: ['roster', 'gradebook'] },
    ]);
    service = started.service;
    token = await tokenFor(service, 'lms', started.secrets.lms);
  });
  afterAll(() => service.close());

  test('pages, a sorted and filtered list, a nested list and the marks write no temporary file', async () => {
    const watched = mkdtempSync(join(tmpdir(), 'provider-reads-'));
    const previous = process.env.TMPDIR;
    const created: string[] = [];
    const watcher = watch(watched, { recursive: true }, (_event, name) => created.push(String(name)));
    process.env.TMPDIR = watched;
    try {
      const users = await withToken(service, token, `${ROSTERING}/users?limit=2&offset=1`);
      expect(users.status).toBe(200);
      expect(idsOf(users.text, 'users')).toHaveLength(2);
      const sorted = await withToken(service, token, `${ROSTERING}/users?sort=familyName&filter=roles.role='student'`);
      expect(sorted.status).toBe(200);
      expect((await withToken(service, token, `${ROSTERING}/classes/math-7a/students`)).status).toBe(200);
      expect((await withToken(service, token, '/ims/oneroster/gradebook/v1p2/results')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(created).toEqual([]);
      expect(readdirSync(watched)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      watcher.close();
      rmSync(watched, { recursive: true, force: true });
    }
  });
});
