import { escapeControlCharacters } from '../lib/control-characters';
import { openBundle } from '../roster/bundle-source';
import { openCsv } from '../roster/csv-file';
import type { Problem, Warning } from '../roster/problems';

/**
 * The sourcedId of the record each problem, warning or note is at. The import names a file, line
 * and column of the sync's bundle, which is gone once the sync ends; the operator looks the record
 * up in the SIS by its sourcedId. Read before the bundle is removed, for what the import kept.
 */
export async function problemRecords(
  folder: string,
  positions: Iterable<{ readonly file: string; readonly line: number }>,
): Promise<Map<string, string>> {
  const wanted = new Map<string, Set<number>>();
  for (const position of positions) {
    if (position.line < 2) continue;
    const lines = wanted.get(position.file) ?? new Set<number>();
    lines.add(position.line);
    wanted.set(position.file, lines);
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
  return syncLine(problem, records, problem.rule, problem.message);
}

/** A warning as the sync prints it: `warning KIND: text`, as the import does, at the provider's record. */
export function formatSyncWarning(warning: Warning, records: ReadonlyMap<string, string>): string {
  return syncLine(warning, records, `warning ${warning.kind}`, warning.message);
}

/** A note (said once, never a problem), as the import prints it, at the provider's record. */
export function formatSyncNote(note: Warning, records: ReadonlyMap<string, string>): string {
  return syncLine(note, records, `note ${note.kind}`, note.message);
}

/**
 * `users record "x9" (users.csv:10:6 of the sync's bundle): LABEL: text`; a line about a whole
 * file (its header, line 1) names the collection, not a record.
 */
function syncLine(
  at: { readonly file: string; readonly line: number; readonly column: number },
  records: ReadonlyMap<string, string>,
  label: string,
  message: string,
): string {
  const collection = at.file.replace(/\.csv$/, '');
  const record = records.get(`${at.file}:${at.line}`);
  const where = at.line < 2 ? `${collection} collection` : `${collection} record "${record ?? '?'}"`;
  const position = `${at.file}:${at.line}:${at.column} of the sync's bundle`;
  return escapeControlCharacters(`${where} (${position}): ${label}: ${message}`);
}
