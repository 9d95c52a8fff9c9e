import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { exportedRowsOf } from '../../src/provider/exported-rows';
import type { RunningService } from '../../src/service';
import type { Store } from '../../src/store/open-store';
import { describeEachEngine } from '../support/engines';
import { storeStatementsDuring } from '../support/store-statements';
import { importSmallSchool, ROSTERING, startProviderService, tokenFor, withToken } from '../support/provider-client';
import { TEST_SCHOOL, withTestStore } from '../support/stores';

/**
 * A plain page of users, students or teachers that the school's copy does not hold is read from
 * the store a page at a time, and answers byte for byte as the copy of the whole file does: the
 * same records (kept fields given back, lists naming only known records, a kept role that moves a
 * user out of its collection, kept rows the store holds no record of at the end), the same
 * X-Total-Count and Link, pages past the end included.
 */
const V1P1 = '/ims/oneroster/v1p1';
/** The statement a reading of the whole file starts with: every kept field of the school. */
const EVERY_KEPT_FIELD = 'SELECT file, sourced_id, fields FROM roster_fields';

async function firstIds(store: Store, table: 'students' | 'teachers' | 'guardians' | 'schools'): Promise<number[]> {
  const rows = await store.db.selectFrom(table).select('id').orderBy('id').limit(3).execute();
  return rows.map((row) => Number(row.id));
}

/** Kept fields, as an import keeps them, for a few of the demo school's users and some users of no record. */
async function keepFields(store: Store): Promise<void> {
  const [student, partial] = await firstIds(store, 'students');
  const [teacher] = await firstIds(store, 'teachers');
  const [guardian, asStudent] = await firstIds(store, 'guardians');
  const [school] = await firstIds(store, 'schools');
  const rows: Array<[string, Record<string, string>]> = [
    [
      `student-${student}`,
      {
        sourcedId: `student-${student}`,
        role: 'student',
        email: 'kept@example.org',
        agentSourcedIds: `guardian-${guardian},gone-1`,
        'metadata.homeroom': '7A',
        Extra: 'given back',
        password: 'never shown',
      },
    ],
    // A column whose name no JSON path of SQLite can hold: its place is found by reading every kept row.
    [`student-${partial}`, { email: 'partial@example.org', 'Quoted"note': 'read' }],
    [`teacher-${teacher}`, { sourcedId: `teacher-${teacher}`, role: 'Student', givenName: 'Kept' }],
    [`guardian-${asStudent}`, { sourcedId: `guardian-${asStudent}`, role: 'student' }],
    ['admin-1', { sourcedId: 'admin-1', role: 'administrator', givenName: 'Ada', orgSourcedIds: `org-${school}` }],
    ['zz-student', { sourcedId: 'zz-student', role: 'student', givenName: 'Zed', orgSourcedIds: `org-${school}` }],
    ['zz-unknown', { sourcedId: 'zz-unknown', role: 'student', agentSourcedIds: 'nobody-1' }],
  ];
  await store.db
    .insertInto('roster_fields')
    .values(
      rows.map(([sourcedId, fields]) => ({ file: 'users.csv', sourced_id: sourcedId, fields: JSON.stringify(fields) })),
    )
    .execute();
}

/**
 * Plain pages of users, students and teachers (several offsets and limits, pages past the end, 1.1
 * and 1.2) answered from the store a page at a time, then the same answered from the copy of the
 * whole file that a filtered read makes: their paths, bodies, X-Total-Count and Link.
 */
async function pagesFromStoreAndCopy(service: RunningService, token: string) {
  // A new version of the store: the service's copy holds nothing.
  await service.store.db
    .updateTable('roster_versions')
    .set((update) => ({ version: update('version', '+', 1) }))
    .execute();
  const totals: Record<string, number> = {};
  for (const collection of ['users', 'students', 'teachers']) {
    const answer = await withToken(service, token, `${ROSTERING}/${collection}?limit=1`);
    totals[collection] = Number(answer.headers['x-total-count']);
  }
  const paths = ['users', 'students', 'teachers'].flatMap((collection) => {
    const total = totals[collection];
    return [
      `${ROSTERING}/${collection}`,
      `${ROSTERING}/${collection}?limit=7&offset=0`,
      `${ROSTERING}/${collection}?limit=50&offset=60`,
      `${ROSTERING}/${collection}?limit=10000`,
      `${ROSTERING}/${collection}?limit=3&offset=${Math.max(0, total - 2)}`,
      `${ROSTERING}/${collection}?offset=${total + 5}`,
      `${V1P1}/${collection}?limit=4&offset=${Math.max(0, total - 1)}`,
    ];
  });
  const answers = async () =>
    Promise.all(
      paths.map(async (path) => {
        const answer = await withToken(service, token, path);
        expect([path, answer.status]).toEqual([path, 200]);
        return [path, answer.text, answer.headers['x-total-count'], answer.headers.link];
      }),
    );
  let fromStore: unknown[][] = [];
  const paging = await storeStatementsDuring(async () => {
    fromStore = await answers();
  });
  expect(paging.filter(({ sql }) => sql.includes(EVERY_KEPT_FIELD))).toEqual([]);
  // A filter reads users.csv whole into the copy: the same pages are then answered from it.
  const filter = encodeURIComponent("familyName='no such name'");
  const filtering = await storeStatementsDuring(async () => {
    expect((await withToken(service, token, `${ROSTERING}/users?filter=${filter}`)).status).toBe(200);
  });
  expect(filtering.filter(({ sql }) => sql.includes(EVERY_KEPT_FIELD))).not.toEqual([]);
  const fromCopy = await answers();
  return { fromStore, fromCopy };
}

describeEachEngine('users read a page at a time from the store', (engine) => {
  let storeSettings: Record<string, string>;
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await withTestStore(storeSettings, async (store) => {
      await loadDemoSchool(store, TEST_SCHOOL);
      await keepFields(store);
    });
    const started = await startProviderService(storeSettings, [{ name: 'lms', secret: true, operations: ['roster'] }]);
    service = started.service;
    token = await tokenFor(service, 'lms', started.secrets.lms);
  });
  afterAll(() => service.close());

  test('a reading pages users.csv from the store until the copy holds the file', async () => {
    const rows = exportedRowsOf(service.store);
    const first = await rows.open();
    try {
      const pages = await first.userPages?.();
      expect(pages?.total(undefined)).toBeGreaterThan(TEST_SCHOOL.students);
      const whole = (await first.whole(['users'])).get('users');
      expect(await pages?.columns()).toEqual(whole?.columns);
    } finally {
      await first.close();
    }
    const next = await rows.open();
    try {
      expect(await next.userPages?.()).toBeUndefined();
    } finally {
      await next.close();
    }
  });

  test('pages from the store answer as the copy of the whole file does', async () => {
    const { fromStore, fromCopy } = await pagesFromStoreAndCopy(service, token);
    expect(fromStore).toEqual(fromCopy);
    const users = JSON.parse(String(fromCopy[3][1])).users as Array<Record<string, unknown>>;
    const ids = users.map((user) => user.sourcedId);
    expect(ids.slice(-2)).toEqual(['admin-1', 'zz-student']);
    expect(ids).not.toContain('zz-unknown');
    const kept = users.find((user) => user.email === 'kept@example.org');
    expect(kept?.agents).toHaveLength(1);
    expect(kept).toMatchObject({ Extra: 'given back', metadata: { homeroom: '7A' } });
    expect(users.find((user) => user.email === 'partial@example.org')).toMatchObject({ 'Quoted"note': 'read' });
    expect(JSON.stringify(users)).not.toContain('never shown');
    const students = JSON.parse(String(fromCopy[10][1])).users as Array<{ sourcedId: string }>;
    expect(students.map((user) => user.sourcedId)).toContain('zz-student');
    expect(students.some((user) => user.sourcedId.startsWith('guardian-'))).toBe(true);
  });
});

describeEachEngine('users of an imported school read a page at a time from the store', (engine) => {
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    const started = await startProviderService(storeSettings, [{ name: 'lms', secret: true, operations: ['roster'] }]);
    service = started.service;
    token = await tokenFor(service, 'lms', started.secrets.lms);
  });
  afterAll(() => service.close());

  test('pages from the store answer as the copy of the whole file does', async () => {
    const { fromStore, fromCopy } = await pagesFromStoreAndCopy(service, token);
    expect(fromStore).toEqual(fromCopy);
  });
});
