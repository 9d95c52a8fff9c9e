import { importSchool, type ImportOptions, type ImportOutcome } from '../../src/roster/import-school';
import type { Problem } from '../../src/roster/problems';
import { SILENT_PROGRESS } from '../../src/roster/progress';
import type { Store } from '../../src/store/open-store';
import { SCHOOL_TABLES } from '../../src/store/roster/school-tables';

/** The options a test imports with unless it says otherwise. */
export const TEST_IMPORT_OPTIONS = {
  mode: undefined,
  dryRun: false,
  skipInvalid: false,
  fromIdentifier: false,
  defaultCountryCode: '966',
  progress: SILENT_PROGRESS,
} as const;

/** Imports a bundle in-process, as the command does, with the defaults a test wants unless it says otherwise. */
export function importBundle(store: Store, path: string, options: Partial<ImportOptions> = {}): Promise<ImportOutcome> {
  return importSchool(store, { path, ...TEST_IMPORT_OPTIONS, ...options });
}

export function problemsOf(outcome: ImportOutcome): readonly Problem[] {
  return outcome.problems.list().problems;
}

/** Every row of the school's tables, in key order: two stores hold the same school when these are equal. */
export async function schoolRows(store: Store): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of SCHOOL_TABLES) {
    const order = table.hasId ? ['id'] : ['student_id', 'guardian_id'];
    // biome-ignore lint/suspicious/noExplicitAny: every school table, read the same way.
    let query = (store.db as any).selectFrom(table.name).selectAll();
    for (const column of order) query = query.orderBy(column);
    rows[table.name] = await query.execute();
  }
  return rows;
}

/** The school's rows in the embedded store of a data folder, read while no other process writes it. */
export async function schoolRowsIn(dataDirectory: string): Promise<Record<string, unknown[]>> {
  const { openStore } = await import('../../src/store/open-store');
  const store = await openStore({ databaseUrl: undefined, dataDirectory });
  try {
    return await schoolRows(store);
  } finally {
    await store.close();
  }
}

/** The ledger: which sourcedId each record came with. */
export async function ledgerRows(store: Store): Promise<unknown[]> {
  return store.db
    .selectFrom('roster_ids')
    .select(['kind', 'sourced_id', 'id', 'modified_at'])
    .orderBy('kind')
    .orderBy('sourced_id')
    .execute();
}

/** What the store keeps of a bundle's row for export to give back (roster_fields), or undefined. */
export async function keptFieldsOf(
  store: Store,
  file: string,
  sourcedId: string,
): Promise<Record<string, string> | undefined> {
  const kept = await store.db.selectFrom('roster_fields').selectAll().where('file', '=', file).execute();
  const row = kept.find((candidate) => candidate.sourced_id === sourcedId);
  return row && (JSON.parse(row.fields) as Record<string, string>);
}

/** Whether the store holds any row of the school. */
export async function schoolIsEmpty(store: Store): Promise<boolean> {
  const rows = await schoolRows(store);
  return Object.values(rows).every((table) => table.length === 0);
}
