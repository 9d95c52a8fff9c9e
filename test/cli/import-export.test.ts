import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArguments, ROOT } from '../support/cli';
import { smallSchool, withValue, writeBundle } from '../support/roster-bundle';
import { schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * school-service import and export as an operator runs them: problems on standard error as
 * file:line:column, the exit codes (0 written whole, 1 written with rows left out, 2 nothing
 * written), progress as plain lines without a terminal.
 */
describe('school-service import and export', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'school-import-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const runWith = (settings: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, cliArguments(...args), {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: folder, DATABASE_URL: '', ...settings },
      encoding: 'utf8',
    });
  const run = (...args: string[]) => runWith({}, ...args);
  const rows = async () => {
    const store = await openTestStore({ DATA_DIR: folder });
    try {
      return await schoolRows(store);
    } finally {
      await store.close();
    }
  };

  test('a dry run writes nothing; a good bundle imports with exit code 0 and shows its progress', async () => {
    const bundle = writeBundle(smallSchool());
    const dry = run('import', bundle, '--dry-run');
    expect([dry.status, dry.stdout]).toEqual([0, expect.stringContaining('would import')]);
    expect(Object.values(await rows()).every((table) => table.length === 0)).toBe(true);
    const done = run('import', bundle);
    expect(done.status).toBe(0);
    expect(done.stdout).toContain('bulk import imported');
    expect(done.stderr).toMatch(/^users\.csv: 8 rows in [\d.]+ s$/m);
    expect((await rows()).students).toHaveLength(3);
  });

  test('import and export run with a bounded heap and one arena; a bad bound is a usage error', () => {
    const bundle = writeBundle(smallSchool());
    for (const args of [
      ['import', bundle, '--dry-run'],
      ['export', join(folder, 'bounded-export')],
    ]) {
      const done = runWith({ IMPORT_HEAP_MB: '96', LOG_LEVEL: 'debug' }, ...args);
      expect(done.status).toBe(0);
      const line = done.stderr.split('\n').find((text) => text.includes('runs with a bounded heap'));
      // Without the bound, V8's limit on this machine is a quarter of its memory, up to 4 GB.
      expect(JSON.parse(line ?? '{}').heapLimitMegabytes).toBeLessThan(160);
      // One glibc arena, so that a thread's freed memory does not stay resident beside the import.
      expect(JSON.parse(line ?? '{}').mallocArenaMax).toBe(process.env.MALLOC_ARENA_MAX ?? '1');
    }
    const refused = runWith({ IMPORT_HEAP_MB: 'lots' }, 'import', bundle, '--dry-run');
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('IMPORT_HEAP_MB must be a whole number, got "lots"');
  });

  test('bad rows: exit 2 and nothing written, or with --skip-invalid exit 1 and the rest written', async () => {
    const before = await rows();
    const bundle = writeBundle(withValue(smallSchool(), 'demographics', 's1', 'birthDate', '2013-13-01'));
    const refused = run('import', bundle);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'demographics.csv:2:2: bad-date: birthDate "2013-13-01" is not a date (YYYY-MM-DD)',
    );
    expect(refused.stdout).toContain('Nothing was written');
    expect(await rows()).toEqual(before);
    const skipped = run('import', bundle, '--skip-invalid');
    expect(skipped.status).toBe(1);
    expect(skipped.stdout).toContain('1 row was left out');
    expect((await rows()).students).toHaveLength(3);
  });

  test('a path that is no bundle, and a wrong option, exit with 2', () => {
    const missing = run('import', join(folder, 'nowhere'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no such folder or file');
    expect(run('import', folder, '--mode', 'sideways').status).toBe(2);
  });

  test('export writes a bundle that imports into another store as the same school', async () => {
    const target = join(folder, 'export.zip');
    const exported = run('export', target);
    expect(exported.status).toBe(0);
    expect(existsSync(target)).toBe(true);
    const other = mkdtempSync(join(tmpdir(), 'school-import-other-'));
    try {
      const imported = spawnSync(process.execPath, cliArguments('import', target), {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: other, DATABASE_URL: '' },
        encoding: 'utf8',
      });
      expect(imported.status).toBe(0);
      const store = await openTestStore({ DATA_DIR: other });
      try {
        expect(await schoolRows(store)).toEqual(await rows());
      } finally {
        await store.close();
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect(readFileSync(target).subarray(0, 2).toString()).toBe('PK');
  });

  test('export --oneroster 1.2 writes a 1.2 bundle with roles.csv; another version is a usage error', () => {
    const target = join(folder, 'export-1-2');
    const exported = run('export', target, '--oneroster', '1.2');
    expect(exported.status).toBe(0);
    expect(readFileSync(join(target, 'manifest.csv'), 'utf8')).toContain('oneroster.version,1.2');
    expect(exported.stdout).toMatch(/roles\.csv [1-9]/);
    expect(run('export', join(folder, 'export-2-0'), '--oneroster', '2.0').status).not.toBe(0);
    expect(existsSync(join(folder, 'export-2-0'))).toBe(false);
  });
});
