import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ImportConnection } from './import-connection';

/**
 * The imported rows' fields an export gives back (table roster_fields): one JSON object per file
 * and sourcedId. A bulk import replaces them all; a delta replaces the rows it lists and forgets
 * the ones it deletes.
 */
export async function writeKeptFields(
  connection: ImportConnection,
  bulk: boolean,
  kept: AsyncIterable<ReadonlyArray<readonly [file: string, sourcedId: string, fields: string]>>,
  forgotten: ReadonlyArray<readonly [file: string, sourcedId: string]>,
): Promise<void> {
  if (bulk) await connection.run('DELETE FROM roster_fields');
  for (const [file, sourcedId] of forgotten) {
    await connection.run('DELETE FROM roster_fields WHERE file = ? AND sourced_id = ?', [file, sourcedId]);
  }
  for await (const batch of kept) {
    await connection.insert(
      'roster_fields',
      ['file', 'sourced_id', 'fields'],
      batch,
      ' ON CONFLICT (file, sourced_id) DO UPDATE SET fields = excluded.fields',
    );
  }
}

/** Kept rows of one file read per statement, the thread given back between statements. */
const KEPT_PAGE = 5000;

/** Whether a kept row is a stored mark's: there may be millions, and the export reads those with their marks. */
const A_MARK =
  "f.file = 'results.csv' AND EXISTS " +
  "(SELECT 1 FROM roster_ids r WHERE r.kind = 'marks' AND r.sourced_id = f.sourced_id)";

type KeptByFile = Map<string, Map<string, Record<string, string>>>;

function keptInto(
  files: KeptByFile,
  rows: readonly { file: string; sourced_id: string; fields: string | null }[],
): void {
  for (const row of rows) {
    if (row.fields === null) continue;
    let file = files.get(row.file);
    if (!file) {
      file = new Map();
      files.set(row.file, file);
    }
    file.set(row.sourced_id, JSON.parse(row.fields) as Record<string, string>);
  }
}

/** A page of `file`'s kept rows after `after`, by sourcedId: the statement and its parameters. */
function pageOfFile(file: string, after: string | undefined, select: string): [string, unknown[]] {
  const from = after === undefined ? '' : ' AND f.sourced_id > ?';
  return [
    `SELECT ${select} FROM roster_fields f WHERE f.file = ?${from} ORDER BY f.sourced_id LIMIT ?`,
    [file, ...(after === undefined ? [] : [after]), KEPT_PAGE],
  ];
}

/**
 * Every kept row, by file then sourcedId, in sourcedId order, but the kept fields of stored marks
 * (readSchoolTable's `kept` reads those). With `file` ('users.csv'), that file's alone, read a
 * page at a time with the thread given back between pages: a large school's users or enrolments
 * are seconds of rows (its marks' rows, millions, are passed over without their fields), and a
 * service reading them goes on answering meanwhile.
 */
export async function readKeptFields(connection: ImportConnection, file?: string): Promise<KeptByFile> {
  const files: KeptByFile = new Map();
  if (file === undefined) {
    const all = `SELECT file, sourced_id, fields FROM roster_fields f WHERE NOT (${A_MARK}) ORDER BY file, sourced_id`;
    keptInto(files, await connection.all(all));
    return files;
  }
  let after: string | undefined;
  for (;;) {
    const fields = `f.file, f.sourced_id, CASE WHEN ${A_MARK} THEN NULL ELSE f.fields END AS fields`;
    const rows = await connection.all<{ file: string; sourced_id: string; fields: string | null }>(
      ...pageOfFile(file, after, fields),
    );
    keptInto(files, rows);
    if (rows.length < KEPT_PAGE) return files;
    after = rows[rows.length - 1].sourced_id;
    await nextTurn();
  }
}

/**
 * The header names the kept fields of a file's rows use, each once, in the engine's order of text
 * (the columns an export adds for them): gathered a page of rows at a time, the thread given back
 * between pages (results.csv has a row for every mark), then ordered by the engine.
 */
export async function keptColumns(connection: ImportConnection, file: string): Promise<string[]> {
  const names = new Set<string>();
  let after: string | undefined;
  for (;;) {
    const from = after === undefined ? [] : [after];
    const start = after === undefined ? '' : ' AND sourced_id > ?';
    // The page's last row, found in the key's index alone; none when the rows left fit one page.
    const [last] = await connection.all<{ sourced_id: string }>(
      `SELECT sourced_id FROM roster_fields WHERE file = ?${start} ORDER BY sourced_id LIMIT 1 OFFSET ${KEPT_PAGE - 1}`,
      [file, ...from],
    );
    const end = last === undefined ? [] : [last.sourced_id];
    const until = last === undefined ? '' : ' AND sourced_id <= ?';
    const page = `(SELECT fields FROM roster_fields WHERE file = ?${start}${until})`;
    const found = await connection.all<{ name: string }>(connection.engine.jsonKeys(page, 'fields', '1 = 1'), [
      file,
      ...from,
      ...end,
    ]);
    for (const { name } of found) names.add(name);
    if (last === undefined) return inTextOrder(connection, [...names]);
    after = last.sourced_id;
    await nextTurn();
  }
}

/** Texts in the engine's order of text, the order an ORDER BY of them gives. */
async function inTextOrder(connection: ImportConnection, texts: readonly string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const values = texts.map(() => '(CAST(? AS text))').join(', ');
  const rows = await connection.all<{ name: string }>(
    `SELECT v.column1 AS name FROM (VALUES ${values}) v ORDER BY 1`,
    texts,
  );
  return rows.map((row) => row.name);
}

/** Sourced ids looked up per statement: within every engine's limit of bound parameters. */
const LOOKUP_BATCH = 500;

/** The kept fields of some rows of one file, by sourcedId (a row nothing was kept of is absent). */
export async function keptRowsOf(
  connection: ImportConnection,
  file: string,
  sourcedIds: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const rows = new Map<string, Record<string, string>>();
  for (let start = 0; start < sourcedIds.length; start += LOOKUP_BATCH) {
    const batch = sourcedIds.slice(start, start + LOOKUP_BATCH);
    const places = batch.map(() => '?').join(', ');
    const found = await connection.all<{ sourced_id: string; fields: string }>(
      `SELECT sourced_id, fields FROM roster_fields WHERE file = ? AND sourced_id IN (${places})`,
      [file, ...batch],
    );
    for (const row of found) rows.set(row.sourced_id, JSON.parse(row.fields) as Record<string, string>);
  }
  return rows;
}

/**
 * The kept rows of one file whose field `column` holds one of `values` (a class's enrolments, by
 * classSourcedId), by sourcedId: what a delta needs of the rows it does not list.
 */
export async function keptRowsNaming(
  connection: ImportConnection,
  file: string,
  column: string,
  values: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const rows = new Map<string, Record<string, string>>();
  const field = connection.engine.jsonText('fields');
  const path = connection.engine.jsonKeyParameter(column);
  for (let start = 0; start < values.length; start += LOOKUP_BATCH) {
    const batch = values.slice(start, start + LOOKUP_BATCH);
    const places = batch.map(() => '?').join(', ');
    const found = await connection.all<{ sourced_id: string; fields: string }>(
      `SELECT sourced_id, fields FROM roster_fields WHERE file = ? AND ${field} IN (${places})`,
      [file, path, ...batch],
    );
    for (const row of found) rows.set(row.sourced_id, JSON.parse(row.fields) as Record<string, string>);
  }
  return rows;
}
