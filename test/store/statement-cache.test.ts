import BetterSqlite3 from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { withStatementCache } from '../../src/store/sqlite/statement-cache';

/** The SQLite dialect's database with cached statements and rows built in JavaScript. */
describe('SQLite statement cache', () => {
  let database: BetterSqlite3.Database;

  beforeEach(() => {
    database = new BetterSqlite3(':memory:');
    database.exec(
      `
      CREATE TABLE people (id INTEGER PRIMARY KEY, name_ar TEXT, name_en TEXT NOT NULL, score REAL, photo BLOB);
      INSERT INTO people VALUES (1, 'أنس', 'Anas', 17.5, x'00ff'), (2, NULL, 'Huda', NULL, NULL), ` +
        `(3, 'رغد', 'Raghad', 9.25, NULL);
    `,
    );
  });
  afterEach(() => {
    if (database.open) database.close();
  });

  const QUERIES = [
    'SELECT id, name_ar, name_en, score, photo FROM people ORDER BY id',
    // Two columns of one name: the later one wins, as in better-sqlite3's own row objects.
    'SELECT a.name_en AS name, b.name_ar AS name, a.id FROM people a JOIN people b ON b.id = a.id ORDER BY a.id',
    'SELECT count(*) AS "count(*)", max(score) AS "max score", \'x"y\' AS "quote""d" FROM people',
  ];

  test.each(QUERIES)('rows of %p are the objects better-sqlite3 itself makes', (query) => {
    const cached = withStatementCache(database);
    const own = database.prepare(query).all();
    const rows = cached.prepare(query).all([]) as Record<string, unknown>[];
    expect(rows).toEqual(own);
    // Own properties, in the same order, on plain objects: no column name changes a prototype.
    rows.forEach((row, index) => {
      expect(Object.keys(row)).toEqual(Object.keys(own[index] as object));
      expect(Object.getPrototypeOf(Object.getPrototypeOf(row))).toBeNull();
    });
  });

  test('a column named __proto__ is a property like any other, never the prototype of the row', () => {
    const rows = withStatementCache(database)
      .prepare('SELECT name_ar AS __proto__, name_en FROM people ORDER BY id')
      .all([]) as Record<string, unknown>[];
    expect(rows.map((row) => Object.getOwnPropertyDescriptor(row, '__proto__')?.value)).toEqual(['أنس', null, 'رغد']);
    for (const row of rows) expect(Object.getPrototypeOf(Object.getPrototypeOf(row))).toBeNull();
  });

  test('iterate() yields the same rows, and writes run', () => {
    const cached = withStatementCache(database);
    const insert = cached.prepare('INSERT INTO people (id, name_en) VALUES (?, ?)');
    expect(insert.reader).toBe(false);
    expect(insert.run([4, 'Omar'])).toMatchObject({ changes: 1, lastInsertRowid: 4 });
    const select = cached.prepare('SELECT id, name_en FROM people WHERE id > ? ORDER BY id');
    expect(select.reader).toBe(true);
    expect([...select.iterate([2])]).toEqual([
      { id: 3, name_en: 'Raghad' },
      { id: 4, name_en: 'Omar' },
    ]);
  });

  test('a statement is prepared once and reused; the least recently used is dropped at the limit', () => {
    const prepare = jest.spyOn(database, 'prepare');
    const cached = withStatementCache(database, 2);
    const first = cached.prepare('SELECT 1 AS one');
    expect(cached.prepare('SELECT 1 AS one')).toBe(first);
    cached.prepare('SELECT 2 AS two');
    cached.prepare('SELECT 1 AS one'); // now the most recent
    cached.prepare('SELECT 3 AS three'); // drops SELECT 2
    expect(cached.prepare('SELECT 1 AS one')).toBe(first);
    const before = prepare.mock.calls.length;
    cached.prepare('SELECT 2 AS two');
    expect(prepare.mock.calls.length).toBe(before + 1);
  });

  test('kysely reads typed rows through it', async () => {
    const db = new Kysely<{ people: { id: number; name_ar: string | null; name_en: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(database) }),
    });
    const rows = await db
      .selectFrom('people')
      .select(['id', 'name_ar as nameAr'])
      .where('id', '<', 3)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 1, nameAr: 'أنس' },
      { id: 2, nameAr: null },
    ]);
    const { rows: counted } = await sql<{ total: number }>`SELECT count(*) AS total FROM people`.execute(db);
    expect(counted).toEqual([{ total: 3 }]);
    await db.destroy();
  });
});
