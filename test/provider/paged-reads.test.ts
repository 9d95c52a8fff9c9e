import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { cellText, exportedRowsOf } from '../../src/provider/exported-rows';
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

/** The statement an outline of users.csv runs (the kept rows it resolves): only a page read from the store runs it. */
const OUTLINE = 'SELECT f.sourced_id, f.fields, ';
/** The statement a page's first rows are read by, found by their place in the table. */
const PAGE_ROWS = 'LIMIT 1 OFFSET ';
const pagedFromStore = (sql: string) => sql.includes(OUTLINE) || sql.includes(PAGE_ROWS);

/** A new version of the store: the service's copy holds nothing, and reads of the last version stop. */
async function newVersion(service: RunningService): Promise<void> {
  await service.store.db
    .updateTable('roster_versions')
    .set((update) => ({ version: update('version', '+', 1) }))
    .execute();
}

/** A read's answer (its path, body, X-Total-Count and Link) and the statements the store ran while it was made. */
async function readRecorded(service: RunningService, token: string, path: string) {
  let answer: unknown[] = [];
  const statements = await storeStatementsDuring(async () => {
    const got = await withToken(service, token, path);
    expect([path, got.status]).toEqual([path, 200]);
    answer = [path, got.text, got.headers['x-total-count'], got.headers.link];
  });
  return { answer, sqls: statements.map(({ sql }) => sql) };
}

/**
 * Plain pages of users, students and teachers (several offsets and limits, pages past the end, 1.1
 * and 1.2) answered from the store a page at a time, each at a new version (so that the copy the
 * page starts filling in the background answers none of them), then the same answered from the
 * copy of the whole file that a filtered read makes: their paths, bodies, X-Total-Count and Link.
 */
async function pagesFromStoreAndCopy(service: RunningService, token: string) {
  const totals: Record<string, number> = {};
  for (const collection of ['users', 'students', 'teachers']) {
    await newVersion(service);
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
  const fromStore: unknown[][] = [];
  for (const path of paths) {
    await newVersion(service);
    const { answer, sqls } = await readRecorded(service, token, path);
    expect([path, sqls.some((sql) => sql.includes(OUTLINE))]).toEqual([path, true]);
    fromStore.push(answer);
  }
  // A filter reads users.csv whole into the copy (by its pages, which the tests below compare with
  // the export's whole file): the same pages are then answered from the copy.
  await newVersion(service);
  const filter = encodeURIComponent("familyName='no such name'");
  const filtering = await readRecorded(service, token, `${ROSTERING}/users?filter=${filter}`);
  expect(filtering.sqls.some(pagedFromStore)).toBe(true);
  let fromCopy: unknown[][] = [];
  const copying = await storeStatementsDuring(async () => {
    fromCopy = await Promise.all(
      paths.map(async (path) => {
        const answer = await withToken(service, token, path);
        expect([path, answer.status]).toEqual([path, 200]);
        return [path, answer.text, answer.headers['x-total-count'], answer.headers.link];
      }),
    );
  });
  expect(copying.map(({ sql }) => sql).filter(pagedFromStore)).toEqual([]);
  return { fromStore, fromCopy };
}

/**
 * users.csv as the export's rows give it whole, and as its pages give it (seven rows a statement,
 * so that rows cross the pieces' ends), on a copy of the school's own: columns and rows as text.
 */
async function wholeFileAndPages(service: RunningService) {
  const rows = exportedRowsOf(service.store);
  const reading = await rows.open();
  try {
    const pages = await reading.userPages?.();
    if (!pages) throw new Error('the reading gave no pages');
    // The reading holds a reading of the store now: the whole file is read by the export's rows.
    const whole = (await reading.whole(['users'])).get('users');
    const paged: string[][] = [];
    const visit = (values: readonly unknown[]) => paged.push(values.map(cellText)) > 0;
    await pages.rows(undefined, 0, pages.total(undefined), visit, 7);
    const columns = (await pages.columns()).map((column) => cellText(column).trim());
    return { whole: { columns: whole?.columns, rows: whole?.rows }, paged: { columns, rows: paged } };
  } finally {
    await reading.close();
    await rows.close();
  }
}

/**
 * Reads `path` until an answer is made from the copy (none of a page's statements), each answer
 * as `first`'s; the last read's statements.
 */
async function readUntilFromCopy(service: RunningService, token: string, path: string, first: unknown[]) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { answer, sqls } = await readRecorded(service, token, path);
    expect(answer).toEqual(first);
    if (!sqls.some(pagedFromStore) || Date.now() > deadline) return sqls;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
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
      await rows.close();
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

  test("the pages of users.csv are the export's whole file, row for row, awkward kept fields and all", async () => {
    const { whole, paged } = await wholeFileAndPages(service);
    expect(paged.rows.map((row) => row[0])).toContain('admin-1');
    expect(paged).toEqual(whole);
  });

  test('a page from the store fills the copy behind it; later pages read from it until a change', async () => {
    await newVersion(service);
    const total = Number((await withToken(service, token, `${ROSTERING}/users?limit=1`)).headers['x-total-count']);
    const path = `${ROSTERING}/users?limit=20&offset=${total - 5}`;
    await newVersion(service);
    const first = await readRecorded(service, token, path);
    expect(first.sqls.filter((sql) => sql.includes(PAGE_ROWS))).not.toEqual([]);
    expect(String(first.answer[1])).toContain('"Ada"');
    // No read here needs the whole file: only the background read can have filled the copy.
    const later = await readUntilFromCopy(service, token, path, first.answer);
    expect(later.filter(pagedFromStore)).toEqual([]);
    expect(later.filter((sql) => sql.includes(EVERY_KEPT_FIELD))).toEqual([]);
    // A change to the roster (an operator's SQL) moves the version: the next page is read from the store.
    await service.store.db
      .updateTable('roster_fields')
      .set({ fields: JSON.stringify({ sourcedId: 'admin-1', role: 'administrator', givenName: 'Adele' }) })
      .where('sourced_id', '=', 'admin-1')
      .execute();
    const changed = await readRecorded(service, token, path);
    expect(changed.sqls.filter((sql) => sql.includes(PAGE_ROWS))).not.toEqual([]);
    expect(String(changed.answer[1])).toContain('"Adele"');
    expect(String(changed.answer[1])).not.toContain('"Ada"');
    expect(await readUntilFromCopy(service, token, path, changed.answer)).not.toContainEqual(
      expect.stringContaining(PAGE_ROWS),
    );
  });
});

describeEachEngine('users of an imported school read a page at a time from the store', (engine) => {
  let storeSettings: Record<string, string>;
  let service: RunningService;
  let token: string;
  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    const started = await startProviderService(storeSettings, [{ name: 'lms', secret: true, operations: ['roster'] }]);
    service = started.service;
    token = await tokenFor(service, 'lms', started.secrets.lms);
  });
  afterAll(() => service.close());

  test('a page after an import or an unrelated change reads the saved outline; after users change, not', async () => {
    const saved = await readRecorded(service, token, `${ROSTERING}/users?limit=3`);
    expect(saved.sqls.filter((sql) => sql.includes(PAGE_ROWS))).not.toEqual([]);
    expect(saved.sqls.filter((sql) => sql.includes(OUTLINE))).toEqual([]);
    // A change of the school's records but its users (a line item, a class): the outline holds.
    await service.store.db.updateTable('classes').set({ name_en: 'Renamed' }).where('id', '>', 0).execute();
    const other = await readRecorded(service, token, `${ROSTERING}/users?limit=3`);
    expect(other.sqls.filter((sql) => sql.includes(PAGE_ROWS))).not.toEqual([]);
    expect(other.sqls.filter((sql) => sql.includes(OUTLINE))).toEqual([]);
    expect(other.answer).toEqual(saved.answer);
    // A change of the users' kept fields: the outline is worked out again.
    await service.store.db
      .updateTable('roster_fields')
      .set({ fields: JSON.stringify({ sourcedId: 'admin-1', role: 'administrator', givenName: 'Adele' }) })
      .where('file', '=', 'users.csv')
      .where('sourced_id', '=', 'admin-1')
      .execute();
    const worked = await readRecorded(service, token, `${ROSTERING}/users?limit=100`);
    expect(worked.sqls.filter((sql) => sql.includes(OUTLINE))).not.toEqual([]);
    expect(String(worked.answer[1])).toContain('"Adele"');
  });

  test('pages from the store answer as the copy of the whole file does', async () => {
    const { fromStore, fromCopy } = await pagesFromStoreAndCopy(service, token);
    expect(fromStore).toEqual(fromCopy);
  });

  test("the pages of users.csv are the export's whole file, row for row", async () => {
    const { whole, paged } = await wholeFileAndPages(service);
    expect(paged.rows.length).toBeGreaterThan(7);
    expect(paged).toEqual(whole);
  });

  test('a service closing while the copy is filled in the background closes', async () => {
    const other = await startProviderService(storeSettings, [{ name: 'lms-2', secret: true, operations: ['roster'] }]);
    const otherToken = await tokenFor(other.service, 'lms-2', other.secrets['lms-2']);
    await newVersion(other.service);
    expect((await withToken(other.service, otherToken, `${ROSTERING}/users?limit=3`)).status).toBe(200);
    await other.service.close();
  });
});
