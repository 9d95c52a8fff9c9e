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

/** The school's rows as the export gives them now, and the word that the school changed. */
export interface ExportedRows {
  read(): Promise<ExportedSchool>;
  /** Said after a write: no request after it takes an export begun before it. */
  changed(): void;
}

/**
 * Requests that come while one export runs share it, unless the school changed since it began;
 * the next request after it reads again, so that a record written is read back at once.
 */
export function exportedRowsOf(store: Store): ExportedRows {
  let running: { readonly rows: Promise<ExportedSchool>; readonly generation: number } | undefined;
  let generation = 0;
  return {
    read() {
      if (running?.generation === generation) return running.rows;
      const started = { generation, rows: readExport(store) };
      running = started;
      started.rows
        .finally(() => {
          if (running === started) running = undefined;
        })
        .catch(() => undefined);
      return started.rows;
    },
    changed() {
      generation += 1;
    },
  };
}
