import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { readSchools, schoolFolder } from '../../src/district/school-list';
import { runCommand } from '../support/cli';
import { districtBundle } from '../support/district-bundle';
import { writeBundle } from '../support/roster-bundle';
import { schoolRowsIn } from '../support/roster-import';
import { withTestStore } from '../support/stores';
import { TEST_OUTBOX_KEY } from '../support/test-key';

/**
 * `import BUNDLE --all-schools [--add-schools]` as the operator runs it on a district bundle of two
 * schools (sch-1, no identifier; sch-2, identifier NOOR): each listed school gets its own org's
 * rows in its own store, one import each with its own summary; `--add-schools` registers the rest
 * first at a path from the org's identifier; a school that fails leaves the others imported and
 * the exit code says so. Districts are served on SQLite, so this suite runs on SQLite.
 */

describe('import --all-schools', () => {
  let dataDirectory: string;
  let bundle: string;

  const cli = (args: string[]) => runCommand({ DATA_DIR: dataDirectory }, args);
  const students = async (sourcedId: string) =>
    (await schoolRowsIn(schoolFolder(dataDirectory, sourcedId))).students.length;
  const listed = () => readSchools(dataDirectory).map((school) => `${school.sourcedId} ${school.path}`);

  beforeAll(() => {
    bundle = writeBundle(districtBundle());
  });
  beforeEach(() => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'school-district-import-'));
    expect(cli(['schools', 'add', 'sch-1', '--path', '/amal']).status).toBe(0);
  });
  afterEach(() => rmSync(dataDirectory, { recursive: true, force: true }));

  it('imports the listed school of the bundle into its own store, and names the one not listed', async () => {
    const run = cli(['import', bundle, '--all-schools']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('School sch-1 (/amal):');
    expect(run.stdout).toContain('Not imported, not listed (--add-schools registers them): sch-2.');
    expect(run.stdout).toContain("1 school of the bundle's 2 imported, each on its own: 1 whole, 0 not");
    expect(await students('sch-1')).toBe(3);
    expect(listed()).toEqual(['sch-1 /amal']);
    expect(existsSync(join(dataDirectory, 'school.sqlite'))).toBe(false);
  });

  it('registers the rest with --add-schools (a dry run says so and registers none), then imports each', async () => {
    const dry = cli(['import', bundle, '--all-schools', '--add-schools', '--dry-run']);
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain('Would register school sch-2 at /noor.');
    expect(listed()).toEqual(['sch-1 /amal']);
    expect(await students('sch-1')).toBe(0);

    const run = cli(['import', bundle, '--all-schools', '--add-schools']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Registered school sch-2 at /noor.');
    expect(run.stdout).toMatch(/School sch-1 \(\/amal\):\n[\s\S]*School sch-2 \(\/noor\):\n/);
    expect(listed()).toEqual(['sch-1 /amal', 'sch-2 /noor']);
    expect(await students('sch-1')).toBe(3);
    expect(await students('sch-2')).toBe(1);
  });

  it('goes on past a school that fails, and exits as that school’s import did', async () => {
    // sch-1's store holds another school: its bulk import is refused without --replace.
    await withTestStore({ DATA_DIR: schoolFolder(dataDirectory, 'sch-1'), OUTBOX_KEY: TEST_OUTBOX_KEY }, (store) =>
      loadDemoSchool(store, { students: 5, seed: 2, startYear: 2026 }),
    );
    const run = cli(['import', bundle, '--all-schools', '--add-schools']);
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('Nothing was written: the store holds another school');
    expect(run.stdout).toContain("2 schools of the bundle's 2 imported, each on its own: 1 whole, 1 not");
    expect(await students('sch-1')).toBe(5);
    expect(await students('sch-2')).toBe(1);
  });

  it('refuses --add-schools without --all-schools, and --all-schools with --school', () => {
    for (const args of [['--add-schools'], ['--all-schools', '--school', 'sch-1']]) {
      const refused = cli(['import', bundle, ...args]);
      expect(refused.status).toBe(2);
      expect(listed()).toEqual(['sch-1 /amal']);
    }
  });
});
