import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, ROSTERING, startProviderService, tokenFor, withToken } from '../support/provider-client';
import { runStoreCli } from '../support/subject-cli';

/**
 * A teacher erased with `subject erase --teacher`, as a OneRoster delta reader sees it from another
 * address, on both engines: the teacher is a change of /teachers and of /users, `tobedeleted` with
 * nothing but its sourcedId and the time it went (no name, no phone), and a GET of it is 404.
 */

const TEACHER = 't-2';
const changesSince = (since: string) => `filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`;

describeEachEngine('an erased teacher read as a change', (engine) => {
  let settings: Record<string, string>;
  let service: RunningService;
  let token: string;
  const get = async (path: string) => {
    const answer = await withToken(service, token, path);
    return { status: answer.status, text: answer.text, body: answer.status === 200 ? JSON.parse(answer.text) : {} };
  };
  const deleted = (records: Array<Record<string, unknown>>) =>
    records.filter((record) => record.status === 'tobedeleted');

  beforeAll(async () => {
    settings = engine.freshStoreSettings();
    // The erasure runs as the operator's command on the service's store: the same folder (its key) on either engine.
    if (!settings.DATA_DIR) settings.DATA_DIR = mkdtempSync(join(tmpdir(), 'school-teacher-tombstone-'));
    await importSmallSchool(settings);
    let secrets: Record<string, string>;
    ({ service, secrets } = await startProviderService(settings, [
      { name: 'lms', secret: true, operations: ['roster'] },
    ]));
    token = await tokenFor(service, 'lms', secrets.lms);
  });
  afterAll(() => service?.close());

  test('is tobedeleted in the changes of /teachers and /users, with its sourcedId and time alone', async () => {
    const seen = await get(`${ROSTERING}/users/${TEACHER}`);
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Yusuf');
    const teacherId = String(seen.body.user.metadata.contractId);
    const before = new Date().toISOString();
    const erased = await runStoreCli(settings, 'subject', 'erase', '--teacher', teacherId, '--reason', 'left');
    expect(erased).toEqual({ code: 0, output: expect.stringContaining(`Erased teacher ${teacherId}.`) });

    for (const collection of ['teachers', 'users']) {
      const answer = await get(`${ROSTERING}/${collection}?${changesSince(before)}`);
      expect([collection, answer.status]).toEqual([collection, 200]);
      const tombstones = deleted(answer.body.users);
      expect(tombstones).toEqual([{ sourcedId: TEACHER, status: 'tobedeleted', dateLastModified: expect.any(String) }]);
      expect(String(tombstones[0].dateLastModified) >= before).toBe(true);
      expect(answer.text).not.toContain('Yusuf');
      expect(answer.text).not.toContain('Karim');
    }
    expect((await get(`${ROSTERING}/users/${TEACHER}`)).status).toBe(404);
    // A list that asks for no changes holds no tombstone.
    expect(deleted((await get(`${ROSTERING}/teachers`)).body.users)).toEqual([]);
  });
});
