import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { loadConfig } from '../../src/config/service-config';
import { backupStore } from '../../src/store/backup/backup-store';
import { copyStore } from '../../src/store/copy/copy-store';
import { up as removeKeptPasswords } from '../../src/store/migrations/015-no-kept-passwords';
import { exportingStores } from '../support/bundle-compare';
import { describeEachEngine, type EngineName } from '../support/engines';
import { postgresBinDirectory } from '../support/postgres';
import { positionOf, smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { importBundle, keptFieldsOf, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * A users.csv may carry each user's password. The service reads none and stores none: it is not
 * kept with the user's other fields, so no export, backup or copy of the store holds it, and the
 * import says so once, at the first row that holds one.
 */
const PASSWORDS = { s1: 'Pw-s1-Q8f3k2qZ', 't-1': 'Pw-t1-X9d7x4zR', g1: 'Pw-g1-L2m5v8wT' } as const;

function schoolWithPasswords() {
  let rows = smallSchool();
  for (const [sourcedId, password] of Object.entries(PASSWORDS))
    rows = withValue(rows, 'users', sourcedId, 'password', password);
  return rows;
}

/** Every file of a folder (an export, a data folder), as one text. */
function folderText(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'latin1'))
    .join('\n');
}

/** A backup's contents as text: the SQLite file's bytes, or the SQL pg_restore makes of a (compressed) dump. */
function backupText(engine: EngineName, path: string): string {
  if (engine === 'sqlite') return readFileSync(path, 'latin1');
  const restored = spawnSync(join(postgresBinDirectory() as string, 'pg_restore'), ['--file', '-', path], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  expect(restored.status).toBe(0);
  return restored.stdout;
}

const holdsAPassword = (text: string) => Object.values(PASSWORDS).filter((password) => text.includes(password));

describeEachEngine('a password in users.csv', (engine) => {
  const { fresh, exported } = exportingStores(engine);

  test('is not kept, exported, backed up or copied, and the import says it is not read and not kept', async () => {
    const settings = engine.freshStoreSettings();
    const store = await openTestStore(settings);
    try {
      const rows = schoolWithPasswords();
      const outcome = await importBundle(store, writeBundle(rows));
      expect(problemsOf(outcome)).toEqual([]);
      expect(outcome.written).toBe(true);
      const at = positionOf(rows, 'users', 's1', 'password');
      expect(outcome.problems.warnings().warnings.filter((warning) => warning.kind === 'not-kept')).toEqual([
        {
          file: 'users.csv',
          line: at.line,
          column: at.column,
          kind: 'not-kept',
          message: 'password is not read and not kept, in this row or any other: the service stores no password',
        },
      ]);
      const kept = await keptFieldsOf(store, 'users.csv', 's1');
      expect(kept).toMatchObject({ sourcedId: 's1', username: 's1' });
      expect(Object.keys(kept ?? {}).map((name) => name.toLowerCase())).not.toContain('password');

      for (const version of ['1.1', '1.2'] as const) {
        const path = await exported(store, version);
        const text = folderText(path);
        expect(holdsAPassword(text)).toEqual([]);
        expect(readFileSync(join(path, 'users.csv'), 'utf8').split('\r\n')[0].split(',')).not.toContain('password');
      }

      const backup = join(mkdtempSync(join(tmpdir(), 'school-backup-')), 'school.backup');
      const config = loadConfig(settings);
      await backupStore({ databaseUrl: config.databaseUrl, dataDirectory: config.dataDirectory }, backup);
      const backedUp = backupText(engine.engine, backup);
      expect(backedUp).toContain('Mona');
      expect(holdsAPassword(backedUp)).toEqual([]);

      const copy = await fresh();
      await copyStore(store, copy, { replace: true });
      const copied = await copy.db.selectFrom('roster_fields').selectAll().execute();
      expect(copied.length).toBeGreaterThan(0);
      expect(holdsAPassword(JSON.stringify(copied))).toEqual([]);
    } finally {
      await store.close();
    }
    if (engine.engine === 'sqlite') {
      const stored = folderText(settings.DATA_DIR);
      expect(stored).toContain('Mona');
      expect(holdsAPassword(stored)).toEqual([]);
    }
  });

  test('a password an older version kept is removed by the store migration that says so', async () => {
    const store = await openTestStore(engine.freshStoreSettings());
    try {
      await importBundle(store, writeBundle(smallSchool()));
      const fields = JSON.stringify({ ...(await keptFieldsOf(store, 'users.csv', 's1')), Password: PASSWORDS.s1 });
      await sql`update roster_fields set fields = ${fields} where file = 'users.csv' and sourced_id = 's1'`.execute(
        store.db,
      );
      // What an older store holds, and what opening it with this version runs once (migration 015).
      await removeKeptPasswords(store.db as unknown as Kysely<unknown>, store.engine);
      expect(await keptFieldsOf(store, 'users.csv', 's1')).toMatchObject({ sourcedId: 's1', username: 's1' });
      expect(Object.keys((await keptFieldsOf(store, 'users.csv', 's1')) ?? {})).not.toContain('Password');
      expect(holdsAPassword(JSON.stringify(await store.db.selectFrom('roster_fields').selectAll().execute()))).toEqual(
        [],
      );
    } finally {
      await store.close();
    }
  });
});
