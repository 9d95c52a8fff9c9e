import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBundle } from '../roster/bundle-source';
import { openCsv } from '../roster/csv-file';
import { exportSchool } from '../roster/export-school';
import { ONEROSTER_FILES } from '../roster/manifest';
import { SILENT_PROGRESS } from '../roster/progress';
import type { Store } from '../store/open-store';

/**
 * The one place the provider takes the school's records from: the rows of the OneRoster files an
 * export writes (1.1 CSV, with the kept fields and the imported sourcedIds), so that the provider
 * answers exactly what `export` gives. Today the export writes files, so its rows are written to a
 * private temporary folder and read back at once (the folder is removed before the answer); when
 * the export has a row source per collection, this file alone is pointed at it.
 */
export interface ExportedFile {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The school's OneRoster files by name ("users"); a file the export does not write is absent. */
export type ExportedSchool = ReadonlyMap<string, ExportedFile>;

async function readExport(store: Store): Promise<ExportedSchool> {
  const folder = await mkdtemp(join(tmpdir(), 'school-provider-'));
  try {
    await exportSchool(store, folder, SILENT_PROGRESS);
    const bundle = await openBundle(folder);
    const school = new Map<string, ExportedFile>();
    for (const name of ONEROSTER_FILES) {
      if (!bundle.find(`${name}.csv`)) continue;
      const file = await openCsv(bundle, `${name}.csv`);
      const rows: string[][] = [];
      for await (const row of file.rows) rows.push([...row.values]);
      school.set(name, { columns: file.names, rows });
    }
    await bundle.close();
    return school;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * The school as the export gives it now. Requests that come while one export runs share it; the
 * next request after it reads again, so that a record written is read back at once.
 */
export function exportedRowsOf(store: Store): () => Promise<ExportedSchool> {
  let running: Promise<ExportedSchool> | undefined;
  return () => {
    running ??= readExport(store).finally(() => {
      running = undefined;
    });
    return running;
  };
}
