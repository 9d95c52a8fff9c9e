import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { idsOf, importSmallSchool, lineItemBody, startProviderWithToken, withToken } from '../support/provider-client';
import { smallSchool } from '../support/roster-bundle';

/**
 * An LMS DELETEs a line item holding results with no mark (exempt, not submitted) as well as
 * marks, from another address, on both engines: every one of its results goes with it. None is
 * read afterwards (the school's results, the line item's, by sourcedId, `export`), a delta reader
 * sees each as tobedeleted, and the line item written again starts empty and takes the same
 * results' sourcedIds as new ones. The results of other line items stay.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const changesSince = (since: string) => `filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`;
const lineItem = lineItemBody({ sourcedId: 'li-trip', title: 'Field trip report' });
const result = (sourcedId: string, of: string, student: string, status: string, score?: number) => ({
  result: {
    sourcedId,
    status: 'active',
    lineItem: { sourcedId: of, type: 'lineItem' },
    student: { sourcedId: student, type: 'user' },
    scoreStatus: status,
    ...(score === undefined ? {} : { score }),
  },
});

describeEachEngine('a line item DELETEd with its unscored results', (engine) => {
  let service: RunningService;
  let token: string;
  const call = (path: string, method = 'GET', body?: unknown) =>
    withToken(service, token, `${GRADEBOOK}${path}`, { method, body });
  const put = async (body: ReturnType<typeof result> | typeof lineItem, path: string) =>
    (await call(path, 'PUT', body)).status;
  const resultIds = async (path: string) => {
    const answer = await call(path);
    expect(answer.status).toBe(200);
    return idsOf(answer.text, 'results').sort();
  };
  const deletedSince = async (since: string) => {
    const answer = await call(`/results?${changesSince(since)}`);
    expect(answer.status).toBe(200);
    const records = JSON.parse(answer.text).results as Array<Record<string, unknown>>;
    return records.filter((record) => record.status === 'tobedeleted').map((record) => String(record.sourcedId));
  };
  const exportedResultIds = async () => {
    const folder = await mkdtemp(join(tmpdir(), 'line-item-delete-'));
    try {
      await exportSchool(service.store, folder, SILENT_PROGRESS, undefined, '1.2');
      const rows = (await readFile(join(folder, 'results.csv'), 'utf8')).split(/\r?\n/).slice(1);
      return rows.filter((row) => row !== '').map((row) => row.split(',')[0]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };

  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    // An imported 1.2 result without a score (kept whole by the import) on line item li3, beside its mark r4.
    const school = smallSchool();
    for (const row of school.manifest) if (row.propertyName === 'oneroster.version') row.value = '1.2';
    const r4 = school.results.find((row) => row.sourcedId === 'r4');
    school.results.push({ ...r4, sourcedId: 'r-imp-late', scoreStatus: 'not submitted', score: '' });
    await importSmallSchool(storeSettings, school);
    ({ service, token } = await startProviderWithToken(storeSettings, {
      name: 'lms',
      operations: ['roster', 'gradebook'],
    }));
  });
  afterAll(() => service.close());

  test('no result of the line item is left; each is tobedeleted; its sourcedIds can be written again', async () => {
    expect(await put(lineItem, '/lineItems/li-trip')).toBe(201);
    expect(await put(result('r-trip-exempt', 'li-trip', 's1', 'exempt'), '/results/r-trip-exempt')).toBe(201);
    expect(await put(result('r-trip-late', 'li-trip', 's2', 'not submitted'), '/results/r-trip-late')).toBe(201);
    expect(await put(result('r-trip-mark', 'li-trip', 's2', 'fully graded', 14), '/results/r-trip-mark')).toBe(201);
    // Another line item's unscored result, which the DELETE leaves alone.
    expect(await put(result('r-li1-exempt', 'li1', 's2', 'exempt'), '/results/r-li1-exempt')).toBe(201);
    expect(await resultIds('/lineItems/li-trip/results')).toEqual(['r-trip-exempt', 'r-trip-late', 'r-trip-mark']);

    const before = new Date().toISOString();
    expect((await call('/lineItems/li-trip', 'DELETE')).status).toBe(204);

    expect(await resultIds('/results')).toEqual(['r-imp-late', 'r-li1-exempt', 'r1', 'r2', 'r3', 'r4']);
    for (const gone of ['r-trip-exempt', 'r-trip-late', 'r-trip-mark']) {
      expect((await call(`/results/${gone}`)).status).toBe(404);
    }
    const exported = await exportedResultIds();
    expect(exported).toContain('r-li1-exempt');
    expect(exported.filter((id) => id.startsWith('r-trip-'))).toEqual([]);
    // A delta reader learns that each went, the unscored ones as the mark.
    expect((await deletedSince(before)).sort()).toEqual(['r-trip-exempt', 'r-trip-late', 'r-trip-mark']);

    // Written again, the line item holds none of its old results, and takes their sourcedIds as new.
    expect(await put(lineItem, '/lineItems/li-trip')).toBe(201);
    expect(await resultIds('/lineItems/li-trip/results')).toEqual([]);
    expect(await put(result('r-trip-exempt', 'li-trip', 's1', 'exempt'), '/results/r-trip-exempt')).toBe(201);
    expect(await resultIds('/lineItems/li-trip/results')).toEqual(['r-trip-exempt']);
    expect((await deletedSince(before)).sort()).toEqual(['r-trip-late', 'r-trip-mark']);
  });

  test('an imported result without a score goes with its line item as the mark beside it does', async () => {
    expect((await call('/results/r-imp-late')).status).toBe(200);
    const before = new Date().toISOString();
    expect((await call('/lineItems/li3', 'DELETE')).status).toBe(204);
    expect((await call('/results/r-imp-late')).status).toBe(404);
    expect(await exportedResultIds()).not.toContain('r-imp-late');
    expect((await deletedSince(before)).sort()).toEqual(['r-imp-late', 'r4']);
  });
});
