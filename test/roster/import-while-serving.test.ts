import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { RunningService } from '../../src/service';
import { loadDemoSchool } from '../../src/demo/load-demo-school';
import { cliArguments, ROOT } from '../support/cli';
import { describeEachEngine } from '../support/engines';
import { callJson } from '../support/json-calls';
import { importBundle, problemsOf } from '../support/roster-import';
import { startTestService } from '../support/service';
import { openTestStore, TEST_SCHOOL } from '../support/stores';

/**
 * An operator imports into the store of a running service: while the import runs the service goes
 * on answering, and each answer is the old school or the new one, never half of each; once the
 * import is done it is the new one.
 */

/** A copy of an exported bundle in which every student and every class has a new name. */
function renamed(folder: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'roster-renamed-'));
  for (const file of [
    'manifest',
    'orgs',
    'academicSessions',
    'courses',
    'classes',
    'users',
    'enrollments',
    'demographics',
    'categories',
    'lineItems',
    'results',
  ]) {
    const rows: Array<Record<string, string>> = parse(readFileSync(join(folder, `${file}.csv`)), { columns: true });
    for (const row of rows) {
      if (file === 'users' && row.role === 'student') row['metadata.nameAr'] = `${row['metadata.nameAr']} (new)`;
      if (file === 'classes' && row.classType === 'homeroom') row.title = `${row.title} (new)`;
    }
    writeFileSync(join(copy, `${file}.csv`), stringify(rows, { header: true }));
  }
  return copy;
}

describeEachEngine('importing into the store of a running service', (engine) => {
  let service: RunningService;
  let settings: Record<string, string>;
  let newSchool: string;

  beforeAll(async () => {
    settings = engine.freshStoreSettings();
    const store = await openTestStore(settings);
    try {
      await loadDemoSchool(store, { ...TEST_SCHOOL, students: 400 });
      const oldSchool = join(mkdtempSync(join(tmpdir(), 'roster-old-')), 'school');
      await exportSchool(store, oldSchool, SILENT_PROGRESS);
      newSchool = renamed(oldSchool);
      expect(problemsOf(await importBundle(store, oldSchool, { replace: true }))).toEqual([]);
    } finally {
      await store.close();
    }
    service = await startTestService(settings);
  });
  afterAll(() => service?.close());

  test('callers see the old school or the new one, never half of each', async () => {
    const seen: string[] = [];
    const ask = async () => {
      const response = await callJson(service.url, '/GetStudentsInformation.asmx', 'GetStudentInfoById', {
        StudentId: '1',
      });
      expect(response.status).toBe(200);
      const info = response.body.d as { NameAr: string; ClassNameAr: string };
      const student = info.NameAr.endsWith(' (new)') ? 'new' : 'old';
      const klass = info.ClassNameAr.endsWith(' (new)') ? 'new' : 'old';
      seen.push(student === klass ? student : `half: ${student} student, ${klass} class`);
    };
    await ask();
    const importer = spawn(process.execPath, cliArguments('import', newSchool), {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', ...settings },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    importer.stdout.on('data', (chunk) => (output += chunk));
    importer.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => importer.on('exit', resolve));
    let running = true;
    void exited.then(() => (running = false));
    while (running) await ask();
    expect([await exited, output]).toEqual([0, expect.stringContaining('bulk import imported')]);
    await ask();
    expect(seen.filter((answer) => answer.startsWith('half'))).toEqual([]);
    // Old answers, then new ones: once the import is committed nobody sees the old school again.
    const firstNew = seen.indexOf('new');
    expect(firstNew).toBeGreaterThan(0);
    expect(seen.slice(firstNew).every((answer) => answer === 'new')).toBe(true);
    expect(seen.length).toBeGreaterThan(5);
  });
});
