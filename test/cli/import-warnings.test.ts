import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArguments, ROOT } from '../support/cli';
import { smallSchool, writeBundle } from '../support/roster-bundle';

/**
 * Warnings never stop an import: exit 0 with each warning on standard error as
 * `file:line:column: warning kind: text`; --strict makes them problems; the summary line counts
 * rows, warnings and problems, on a dry run too.
 */
describe('school-service import: warnings', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-import-warnings-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '' },
      encoding: 'utf8',
    });
  /** The small school with one homeroom's grades left empty: one grade-unknown warning. */
  const bundle = () => {
    const rows = smallSchool();
    const homeroom = rows.classes.find((row) => row.sourcedId === 'hr-7b');
    if (homeroom) homeroom.grades = '';
    return writeBundle(rows);
  };
  // The manifest's properties are not rows of the school.
  const dataRows = Object.entries(smallSchool())
    .filter(([name]) => name !== 'manifest')
    .reduce((sum, [, rows]) => sum + rows.length, 0);

  test('a warning is printed with its place and kind, and the import is written with exit 0', () => {
    const path = bundle();
    const dry = run('import', path, '--dry-run');
    const warning = /^classes\.csv:3:\d+: warning grade-unknown: the class has no grades/m;
    expect(dry.status).toBe(0);
    expect(dry.stderr).toMatch(warning);
    expect(dry.stdout).toContain(`would import`);
    expect(dry.stdout).toContain(`; ${dataRows.toLocaleString('en-US')} rows, 1 warning, 0 problems.`);
    const done = run('import', path);
    expect(done.status).toBe(0);
    expect(done.stderr).toMatch(warning);
    expect(done.stdout).toMatch(/^bulk import imported .*; \d+ rows, 1 warning, 0 problems\.$/m);
  });

  test('--strict makes the warning a problem: nothing written, exit 2', () => {
    const strict = run('import', bundle(), '--strict');
    expect(strict.status).toBe(2);
    expect(strict.stderr).toMatch(/^classes\.csv:3:\d+: grade-unknown: the class has no grades/m);
    expect(strict.stdout).toContain('Nothing was written: 1 problem in 1 row');
    expect(strict.stdout).toContain('0 warnings, 1 problem.');
  });

  test('the 1.2 fixture: its unmapped text score is a warning at its field, the import written', () => {
    const done = run('import', join(ROOT, 'test', 'roster', 'fixtures', 'oneroster-1-2'));
    expect(done.status).toBe(0);
    expect(done.stderr).toMatch(/^results\.csv:5:10: warning text-score-unmapped: textScore "Excellent"/m);
    expect(done.stdout).toMatch(/^bulk import imported .* 2 marks.*; \d+ rows, 1 warning, 0 problems\.$/m);
  });
});
