import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import { smallSchool, writeBundle } from '../support/roster-bundle';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/** Export writes no file of a header alone (the binding permits none): the manifest says absent. */
test('a file without rows is not written, the manifest declares it absent, and the export imports back', async () => {
  const fresh = () => openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'export-absent-')) });
  const rows = smallSchool();
  delete rows.categories;
  for (const row of rows.manifest) if (row.propertyName === 'file.categories') row.value = 'absent';
  for (const row of rows.lineItems) row.categorySourcedId = '';
  delete rows.devices;
  const store = await fresh();
  const copy = await fresh();
  try {
    expect(problemsOf(await importBundle(store, writeBundle(rows)))).toEqual([]);
    const folder = join(mkdtempSync(join(tmpdir(), 'export-absent-out-')), 'bundle');
    const notes: string[] = [];
    const summary = await exportSchool(store, folder, { ...SILENT_PROGRESS, note: (text) => notes.push(text) });
    // The files written, counted as they are on disk: none for a file without rows.
    expect(notes).toContain(`Wrote ${readdirSync(folder).length} files to ${folder}.`);
    expect(summary.files['categories.csv']).toBe(0);
    expect(existsSync(join(folder, 'categories.csv'))).toBe(false);
    expect(existsSync(join(folder, 'devices.csv'))).toBe(false);
    const manifest = readFileSync(join(folder, 'manifest.csv'), 'utf8');
    expect(manifest).toContain('file.categories,absent\r\n');
    expect(manifest).toContain('file.users,bulk\r\n');
    const outcome = await importBundle(copy, folder);
    expect(problemsOf(outcome)).toEqual([]);
    expect(outcome.problems.warningCount).toBe(0);
    expect(await schoolRows(copy)).toEqual(await schoolRows(store));
  } finally {
    await store.close();
    await copy.close();
  }
});
