import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { RunningService } from '../../src/service';
import { basic, remoteCall } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, ROSTERING, startProviderService, tokenFor, withToken } from '../support/provider-client';

/**
 * An LMS writes the school's marks, from another address, on both engines: a PUT result is the
 * mark GetStudentsMarks2 answers over SOAP, its student's guardian's notification is queued, it is
 * audited with its caller; a replay changes nothing, a bad field is named, a caller whose scope
 * may not write writes nothing, and a DELETE removes the mark.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const result = (overrides: Record<string, unknown> = {}) => ({
  result: {
    status: 'active',
    lineItem: { sourcedId: 'li2', type: 'lineItem' },
    student: { sourcedId: 's2', type: 'user' },
    scoreStatus: 'fully graded',
    score: 31.25,
    comment: 'Extra credit for the poster',
    ...overrides,
  },
});

describeEachEngine('gradebook writes', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  let token: string;
  /** PUT of a result under `id`, which its body names too unless it says otherwise. */
  const put = (body: { result: Record<string, unknown> }, id = 'r-lms-1', as = token) =>
    withToken(service, as, `${GRADEBOOK}/results/${id}`, {
      method: 'PUT',
      body: { result: { sourcedId: id, ...body.result } },
    });
  const pushes = async () =>
    (await service.store.db.selectFrom('outbox_messages').select('id').where('channel', '=', 'push').execute()).length;
  const marksOnSoap = async () => {
    const read = (path: string) =>
      withToken(service, token, `${ROSTERING}${path}`).then((answer) => JSON.parse(answer.text));
    const studentId = (await read('/users/s2')).user.metadata.contractId;
    const subjectId = (await read('/courses/c-sci')).course.metadata.contractId;
    const answer = await remoteCall(
      service.url,
      '/GetStudnetsMarks2.asmx',
      'GetStudentsMarks2',
      { StudnetID: String(studentId), SubjectID: String(subjectId) },
      'soap11',
      { headers: { Authorization: basic('office', secrets.office) } },
    );
    expect(answer.status).toBe(200);
    return answer.text;
  };
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    ({ service, secrets } = await startProviderService(
      storeSettings,
      [
        { name: 'lms', secret: true, operations: ['roster', 'gradebook'] },
        { name: 'office', secret: true, operations: ['all'] },
        { name: 'parent-app', secret: true, operations: ['gradebook'], scope: 'guardian:1' },
      ],
      { CONTRACT: 'typed' },
    ));
    token = await tokenFor(service, 'lms', secrets.lms);
  });
  afterAll(() => service.close());

  test('a PUT result is the mark GetStudentsMarks2 answers, and the guardian’s push is queued', async () => {
    expect(await marksOnSoap()).not.toContain('31.25');
    const before = await pushes();
    const created = await put(result());
    expect(created.status).toBe(201);
    expect(await marksOnSoap()).toContain('31.25');
    expect(await pushes()).toBe(before + 1);
    const read = JSON.parse((await withToken(service, token, `${GRADEBOOK}/results/r-lms-1`)).text).result;
    expect(read).toMatchObject({
      score: 31.25,
      comment: 'Extra credit for the poster',
      lineItem: { sourcedId: 'li2' },
    });
    await service.writeAudit();
    const audited = await service.store.db
      .selectFrom('audit_events')
      .select(['caller', 'binding'])
      .where('operation', '=', 'PUT results')
      .execute();
    expect(audited).toEqual([{ caller: 'lms', binding: 'oneroster' }]);
  });

  test('the same PUT again replaces (200) and queues nothing; a new score is notified again', async () => {
    await put(result());
    const before = await pushes();
    expect((await put(result())).status).toBe(200);
    expect(await pushes()).toBe(before);
    expect((await put(result({ score: 29 }))).status).toBe(200);
    expect(await pushes()).toBe(before + 1);
    expect(await marksOnSoap()).toContain('29');
  });

  test('a bad field is named; an unknown line item or student is 404; nothing is written', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ score: 'ten' }, 400, 'score'],
      [{ scoreStatus: 'done' }, 400, 'scoreStatus'],
      [{ lineItem: {} }, 400, 'lineItem'],
      [{ sourcedId: 'other' }, 400, 'sourcedId'],
      [{ comment: 'x'.repeat(2001) }, 400, 'comment'],
      [{ lineItem: { sourcedId: 'li-none' } }, 404, 'lineItem'],
      [{ student: { sourcedId: 's-none' } }, 404, 'student'],
    ];
    for (const [overrides, status, field] of cases) {
      const refused = await put(result(overrides), 'r-refused');
      expect([status, JSON.parse(refused.text).imsx_description]).toEqual([
        refused.status,
        expect.stringContaining(field),
      ]);
    }
    expect((await withToken(service, token, `${GRADEBOOK}/results/r-refused`)).status).toBe(404);
  });

  test('a guardian-scoped caller may not write; a roster-only token may not; DELETE removes the mark', async () => {
    const parent = await tokenFor(service, 'parent-app', secrets['parent-app']);
    expect((await put(result(), 'r-parent', parent)).status).toBe(403);
    const readOnly = await tokenFor(service, 'lms', secrets.lms, [
      'https://purl.imsglobal.org/spec/or/v1p2/scope/gradebook.readonly',
    ]);
    expect((await put(result(), 'r-read-only', readOnly)).status).toBe(403);
    for (const id of ['r-parent', 'r-read-only']) {
      expect((await withToken(service, token, `${GRADEBOOK}/results/${id}`)).status).toBe(404);
    }
    await put(result(), 'r-gone');
    const deleted = await withToken(service, token, `${GRADEBOOK}/results/r-gone`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await withToken(service, token, `${GRADEBOOK}/results/r-gone`)).status).toBe(404);
    expect((await withToken(service, token, `${GRADEBOOK}/results/r-gone`, { method: 'DELETE' })).status).toBe(404);
  });

  test('an exempt result without a score is kept as an import keeps it, and GetStudentsMarks2 drops it', async () => {
    expect((await put(result({ score: 17.75 }), 'r-exempt')).status).toBe(201);
    expect(await marksOnSoap()).toContain('17.75');
    const before = await pushes();
    const exempt = result({ score: undefined, scoreStatus: 'exempt', comment: 'Away on the trip' });
    expect((await put(exempt, 'r-exempt')).status).toBe(200);
    expect(await marksOnSoap()).not.toContain('17.75');
    expect(await pushes()).toBe(before);
    // Known by its sourcedId: the same PUT again replaces it.
    expect((await put(exempt, 'r-exempt')).status).toBe(200);
    const notSubmitted = await put(result({ score: undefined, scoreStatus: 'not submitted' }), 'r-not-in');
    expect(notSubmitted.status).toBe(201);
    const graded = await put(result({ score: undefined, scoreStatus: 'fully graded' }), 'r-no-score');
    expect([graded.status, JSON.parse(graded.text).imsx_description]).toEqual([400, expect.stringContaining('score')]);
    // A 1.2 export gives the unscored results back as rows of their own, with their status.
    const folder = await mkdtemp(join(tmpdir(), 'unscored-'));
    try {
      await exportSchool(service.store, folder, SILENT_PROGRESS, undefined, '1.2');
      const rows = (await readFile(join(folder, 'results.csv'), 'utf8')).split(/\r?\n/);
      expect(rows.find((row) => row.startsWith('r-exempt,'))).toMatch(/exempt.*Away on the trip/);
      expect(rows.find((row) => row.startsWith('r-not-in,'))).toContain('not submitted');
      expect(rows.some((row) => row.startsWith('r-no-score,'))).toBe(false);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    // A score given again makes it the mark once more; DELETE removes an unscored result too.
    expect((await put(result({ score: 16.5 }), 'r-exempt')).status).toBe(200);
    expect(await marksOnSoap()).toContain('16.5');
    expect((await withToken(service, token, `${GRADEBOOK}/results/r-not-in`, { method: 'DELETE' })).status).toBe(204);
    expect((await withToken(service, token, `${GRADEBOOK}/results/r-not-in`, { method: 'DELETE' })).status).toBe(404);
  });
});
