import type { RunningService } from '../../src/service';
import { addTestCallers } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import {
  idsOf,
  importSmallSchool,
  ROSTERING,
  startProviderService,
  tokenFor,
  withToken,
  lineItemBody,
} from '../support/provider-client';

/**
 * An LMS writes the school's line items (assessments), from another address, on both engines: a
 * PUT creates (201) or replaces (200) the assessment the gradebook then reads and marks are written
 * to; a bad field is named and nothing is stored; a teacher's caller writes only in the classes
 * and subjects they teach; a DELETE removes the line item with its results; every write is audited.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const lineItem = lineItemBody;

describeEachEngine('line item writes', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  let token: string;
  const put = (body: { lineItem: Record<string, unknown> }, id: string, as = token) =>
    withToken(service, as, `${GRADEBOOK}/lineItems/${id}`, {
      method: 'PUT',
      body: { lineItem: { sourcedId: id, ...body.lineItem } },
    });
  const get = (path: string, as = token) => withToken(service, as, `${GRADEBOOK}${path}`);
  /** Who made the audited writes of `operation`, once a write (the writes of one second are one entry). */
  const audited = async (operation: string) => {
    await service.writeAudit();
    const entries = await service.store.db
      .selectFrom('audit_events')
      .select(['caller', 'binding', 'calls'])
      .where('operation', '=', operation)
      .execute();
    return entries.flatMap(({ caller, binding, calls }) => Array(Number(calls)).fill({ caller, binding }));
  };
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    ({ service, secrets } = await startProviderService(storeSettings, [
      { name: 'lms', secret: true, operations: ['roster', 'gradebook'] },
      { name: 'parent-app', secret: true, operations: ['gradebook'], scope: 'guardian:1' },
    ]));
    token = await tokenFor(service, 'lms', secrets.lms);
    const teacher = JSON.parse((await withToken(service, token, `${ROSTERING}/users/t-1`)).text).user;
    Object.assign(
      secrets,
      await addTestCallers(service.store, [
        {
          name: 'teacher-app',
          secret: true,
          operations: ['gradebook'],
          scope: `teacher:${teacher.metadata.contractId}`,
        },
      ]),
    );
    await service.readCallers();
  });
  afterAll(() => service.close());

  test('a PUT line item is created (201), read back, replaced (200), and takes results', async () => {
    const created = await put(lineItem(), 'li-lms-1');
    expect(created.status).toBe(201);
    const read = JSON.parse((await get('/lineItems/li-lms-1')).text).lineItem;
    expect(read).toMatchObject({
      sourcedId: 'li-lms-1',
      title: 'Fractions homework',
      class: { sourcedId: 'math-7a' },
      category: { sourcedId: 'cat-quiz' },
      resultValueMax: 20,
    });
    expect(read.dueDate).toMatch(/^2026-10-08/);
    expect((await put(lineItem({ title: 'Fractions, corrected' }), 'li-lms-1')).status).toBe(200);
    expect(JSON.parse((await get('/lineItems/li-lms-1')).text).lineItem.title).toBe('Fractions, corrected');
    expect((await get('/classes/math-7a/lineItems')).text).toContain('li-lms-1');
    const mark = await withToken(service, token, `${GRADEBOOK}/results/r-on-lms-1`, {
      method: 'PUT',
      body: { result: { lineItem: { sourcedId: 'li-lms-1' }, student: { sourcedId: 's1' }, score: 18 } },
    });
    expect(mark.status).toBe(201);
    expect(idsOf((await get('/lineItems/li-lms-1/results')).text, 'results')).toEqual(['r-on-lms-1']);
    expect(await audited('PUT lineItems')).toEqual([
      { caller: 'lms', binding: 'oneroster' },
      { caller: 'lms', binding: 'oneroster' },
    ]);
  });

  test('a bad field is named; an unknown class, session or category is 404; nothing is stored', async () => {
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ title: '' }, 400, 'title'],
      [{ title: 'x'.repeat(501) }, 400, 'title'],
      [{ dueDate: 'next week' }, 400, 'dueDate'],
      [{ assignDate: '2026-13-45' }, 400, 'assignDate'],
      [{ resultValueMax: 'twenty' }, 400, 'resultValueMax'],
      [{ resultValueMax: 5, resultValueMin: 10 }, 400, 'resultValueMax'],
      [{ resultValueMin: -1 }, 400, 'resultValueMin'],
      [{ class: undefined }, 400, 'class'],
      [{ gradingPeriod: undefined }, 400, 'gradingPeriod'],
      [{ category: 'cat-quiz' }, 400, 'category'],
      [{ sourcedId: 'other' }, 400, 'sourcedId'],
      [{ class: { sourcedId: 'hr-7a' } }, 400, 'class'],
      [{ class: { sourcedId: 'no-class' } }, 404, 'class'],
      [{ gradingPeriod: { sourcedId: 'no-term' } }, 404, 'gradingPeriod'],
      [{ category: { sourcedId: 'no-category' } }, 404, 'category'],
    ];
    for (const [overrides, status, field] of cases) {
      const refused = await put(lineItem(overrides), 'li-refused');
      expect([refused.status, JSON.parse(refused.text).imsx_description]).toEqual([
        status,
        expect.stringContaining(field),
      ]);
    }
    expect((await get('/lineItems/li-refused')).status).toBe(404);
  });

  test('a teacher writes in the classes they teach alone; a guardian’s caller may not write', async () => {
    const teacher = await tokenFor(service, 'teacher-app', secrets['teacher-app']);
    expect((await put(lineItem({ class: { sourcedId: 'math-7b' } }), 'li-t1', teacher)).status).toBe(201);
    // sci-7a is t-2's: neither a new line item in it nor its own li2 is within reach.
    expect((await put(lineItem({ class: { sourcedId: 'sci-7a' } }), 'li-t1-sci', teacher)).status).toBe(404);
    expect((await put(lineItem(), 'li2', teacher)).status).toBe(404);
    const li2 = await withToken(service, teacher, `${GRADEBOOK}/lineItems/li2`, { method: 'DELETE' });
    expect(li2.status).toBe(404);
    expect((await get('/lineItems/li-t1-sci')).status).toBe(404);
    expect(JSON.parse((await get('/lineItems/li2')).text).lineItem.class.sourcedId).toBe('sci-7a');
    const parent = await tokenFor(service, 'parent-app', secrets['parent-app']);
    expect((await put(lineItem(), 'li-parent', parent)).status).toBe(403);
    expect((await get('/lineItems/li-parent')).status).toBe(404);
  });

  test('a line item with results cannot move class; DELETE removes it with its results', async () => {
    const moved = await put(lineItem({ class: { sourcedId: 'math-7b' } }), 'li1');
    expect([moved.status, JSON.parse(moved.text).imsx_description]).toEqual([400, expect.stringContaining('class')]);
    expect(idsOf((await get('/lineItems/li1/results')).text, 'results').sort()).toEqual(['r1', 'r2']);
    const deleted = await withToken(service, token, `${GRADEBOOK}/lineItems/li1`, { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await get('/lineItems/li1')).status).toBe(404);
    for (const id of ['r1', 'r2']) expect((await get(`/results/${id}`)).status).toBe(404);
    expect((await get('/results/r3')).status).toBe(200);
    expect((await withToken(service, token, `${GRADEBOOK}/lineItems/li1`, { method: 'DELETE' })).status).toBe(404);
    expect(await audited('DELETE lineItems')).toEqual([{ caller: 'lms', binding: 'oneroster' }]);
  });
});
