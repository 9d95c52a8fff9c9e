import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ENGINE_DOOR, engineDoorViolations, engineFolders } from '../../scripts/lint/engine-door';

const FOLDERS = ['store/sqlite/', 'store/postgres/'];

describe('the engine door check', () => {
  test('finds the engines by their driver.ts under store/', () => {
    expect(
      engineFolders(['store/sqlite/driver.ts', 'store/sqlite/engine.ts', 'store/engines.ts', 'store/copy/driver.ts']),
    ).toEqual(['store/sqlite/', 'store/copy/']);
    expect(engineFolders(['store/driver.ts', 'cli/x/driver.ts'])).toEqual([]);
  });

  test("passes an engine's own folder whatever it does", () => {
    const text = "import BetterSqlite3 from 'better-sqlite3';\nexport const kind = (e: string) => e === 'sqlite';\n";
    expect(engineDoorViolations('store/sqlite/open.ts', text, FOLDERS)).toEqual([]);
  });

  test('refuses a database driver imported outside the engines, a type import too', () => {
    const text =
      "import { Client } from 'pg';\nexport type D = import('better-sqlite3').Database;\nexport { Client };\n";
    expect(engineDoorViolations('store/queries/x.ts', text, FOLDERS)).toEqual([
      'store/queries/x.ts imports pg, a database driver (only src/store/<engine>/ may)',
      'store/queries/x.ts imports better-sqlite3, a database driver (only src/store/<engine>/ may)',
    ]);
  });

  test("refuses a file of an engine's folder imported from elsewhere than the door", () => {
    const text = "import { sqliteFileOf } from '../sqlite/files';\nexport const f = sqliteFileOf;\n";
    expect(engineDoorViolations('store/backup/x.ts', text, FOLDERS)).toEqual([
      'store/backup/x.ts imports ../sqlite/files, inside src/store/sqlite/ (go through src/store/engines.ts)',
    ]);
    expect(engineDoorViolations(ENGINE_DOOR, text.replace('../sqlite', './sqlite'), FOLDERS)).toEqual([]);
  });

  test('refuses code that asks which engine it runs on: compared, switched on, or a table keyed by it', () => {
    const text = [
      "export const a = (store: { engine: { name: string } }) => store.engine.name === 'sqlite';",
      'export const b = (x: { engine: object }, y: object) => x.engine !== y;',
      "export function c(kind: string) { switch (kind) { case 'postgres': return 1; default: return 2; } }",
      "export const d = { sqlite: 'SQLite', postgres: 'PostgreSQL' };",
      "export const e = (format: string) => format === 'pg_dump';",
    ].join('\n');
    const problems = engineDoorViolations('cli/x.ts', text, FOLDERS);
    expect(problems.map((problem) => problem.split(':').slice(0, 2).join(':'))).toEqual([
      'cli/x.ts:1',
      'cli/x.ts:2',
      'cli/x.ts:3',
      'cli/x.ts:4',
    ]);
    expect(problems[0]).toContain("compares engines (store.engine.name === 'sqlite')");
    expect(problems[2]).toContain("switches on an engine (case 'postgres')");
    expect(problems[3]).toContain('keys a table by engine (sqlite, postgres)');
  });

  test('src/ as it is keeps the rule', () => {
    const root = join(__dirname, '..', '..', 'src');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .map((file) => relative(root, join(root, file)));
    const folders = engineFolders(files);
    expect(folders.sort()).toEqual(['store/postgres/', 'store/sqlite/']);
    expect(
      files.flatMap((file) => engineDoorViolations(file, readFileSync(join(root, file), 'utf8'), folders)),
    ).toEqual([]);
  });
});
