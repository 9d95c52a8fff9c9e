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
});
