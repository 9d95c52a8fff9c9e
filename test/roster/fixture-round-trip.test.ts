import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportSchool } from '../../src/roster/export-school';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import { importBundle, problemsOf, schoolRows } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/** A school of scheduled classes only exports with its inferred sections and imports back as the same school. */
test('the scheduled-only bundle round-trips through export, ids and inferred sections included', async () => {
  const fresh = () => openTestStore({ DATA_DIR: mkdtempSync(join(tmpdir(), 'fixture-round-trip-')) });
  const first = await fresh();
  const second = await fresh();
  try {
    expect(problemsOf(await importBundle(first, join(__dirname, 'fixtures', 'scheduled-only')))).toEqual([]);
    const folder = join(mkdtempSync(join(tmpdir(), 'fixture-export-')), 'bundle');
    await exportSchool(first, folder, SILENT_PROGRESS);
    const back = await importBundle(second, folder);
    expect(problemsOf(back)).toEqual([]);
    // The sections are homerooms in the export: nothing is inferred the second time.
    expect(back.problems.warningCount).toBe(0);
    expect(await schoolRows(second)).toEqual(await schoolRows(first));
  } finally {
    await first.close();
    await second.close();
  }
});
