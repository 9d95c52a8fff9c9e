import { openBundle } from '../roster/bundle-source';
import { openCsv } from '../roster/csv-file';
import type { Problem } from '../roster/problems';

/**
 * The sourcedId of the record each problem is at. The import names a file, line and column of
 * the sync's bundle, which is gone once the sync ends; the operator looks the record up in the
 * SIS by its sourcedId. Read before the bundle is removed, for the problems the import kept.
 */
export async function problemRecords(folder: string, problems: readonly Problem[]): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const problem of problems) {
    if (problem.line < 2) continue;
    const lines = wanted.get(problem.file) ?? new Set<number>();
    lines.add(problem.line);
    wanted.set(problem.file, lines);
  }
  const found = new Map<string, string>();
  if (wanted.size === 0) return found;
  const bundle = await openBundle(folder);
  try {
    for (const [file, lines] of wanted) {
      const name = bundle.find(file);
      if (!name) continue;
      const csv = await openCsv(bundle, name);
      const column = csv.header.get('sourcedid');
      if (column === undefined) continue;
      for await (const row of csv.rows) {
        if (lines.has(row.line)) found.set(`${file}:${row.line}`, row.values[column] ?? '');
      }
    }
  } finally {
    await bundle.close();
  }
  return found;
}

/** A problem as the sync prints it: the import's own line, with the record it is at. */
export function formatSyncProblem(problem: Problem, records: ReadonlyMap<string, string>): string {
  const record = records.get(`${problem.file}:${problem.line}`);
  const where = `${problem.file.replace(/\.csv$/, '')} record "${record ?? '?'}"`;
  const position = `${problem.file}:${problem.line}:${problem.column} of the sync's bundle`;
  return `${where} (${position}): ${problem.rule}: ${problem.message}`;
}
