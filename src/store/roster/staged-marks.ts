import type { ImportConnection } from './import-connection';

/**
 * Results, staged in a temporary table of the import's own connection while the bundle is read,
 * so millions of them never sit in memory and nothing of the school changes until the import
 * commits. Duplicates, ids and (in a delta) what is newer are worked out by the store in a few
 * set-wide statements.
 */
export interface MarkRow {
  readonly line: number;
  readonly sourcedId: string;
  readonly pinnedId: number | null;
  readonly assessmentId: number;
  readonly studentRecordId: number;
  readonly score: number;
  readonly modifiedAt: string | null;
  readonly deleted: boolean;
  /** The row's fields the store does not hold (a comment, a scoreDate of its own ...), as JSON; null for none. */
  readonly kept: string | null;
}

/** Two rows of results.csv under one sourcedId, or asking for one id: the later line, and the first. */
export interface MarkConflict {
  readonly line: number;
  readonly sourcedId: string;
  readonly firstLine: number;
  readonly id?: number;
}

const COLUMNS = [
  'line',
  'sourced_id',
  'pinned_id',
  'assessment_id',
  'student_record_id',
  'score',
  'modified_at',
  'deleted',
  'kept',
];
/** Conflicts reported at most; the rest are only counted by the caller's problem list. */
const REPORTED = 10_001;

export async function createMarkStaging(connection: ImportConnection): Promise<void> {
  const { temporaryTable, floatType } = connection.engine;
  await connection.run(`DROP TABLE IF EXISTS staged_marks`);
  await connection.run(
    `CREATE ${temporaryTable} TABLE staged_marks (line INTEGER PRIMARY KEY, sourced_id TEXT NOT NULL, ` +
      'pinned_id INTEGER, ' +
      `assessment_id INTEGER NOT NULL, student_record_id INTEGER NOT NULL, score ${floatType} NOT NULL, ` +
      'modified_at TEXT, deleted INTEGER NOT NULL, kept TEXT, id INTEGER)',
  );
}

export async function stageMarks(connection: ImportConnection, marks: readonly MarkRow[]): Promise<void> {
  const rows = marks.map((mark) => [
    mark.line,
    mark.sourcedId,
    mark.pinnedId,
    mark.assessmentId,
    mark.studentRecordId,
    mark.score,
    mark.modifiedAt,
    mark.deleted ? 1 : 0,
    mark.kept,
  ]);
  await connection.staging(() => connection.insert('staged_marks', COLUMNS, rows));
}

/** Rows after the first under the same sourcedId; with `drop`, they leave the staging table. */
export async function duplicateMarks(connection: ImportConnection, drop: boolean): Promise<MarkConflict[]> {
  await connection.run('CREATE INDEX staged_marks_sourced ON staged_marks (sourced_id)');
  const conflicts = await connection.all<{ line: number; sourced_id: string; first_line: number }>(
    'SELECT s.line, s.sourced_id, f.first_line FROM staged_marks s JOIN ' +
      '(SELECT sourced_id, MIN(line) AS first_line FROM staged_marks GROUP BY sourced_id HAVING COUNT(*) > 1) f ' +
      `ON f.sourced_id = s.sourced_id WHERE s.line <> f.first_line ORDER BY s.line LIMIT ${REPORTED}`,
  );
  if (drop && conflicts.length > 0) {
    await connection.run(
      'DELETE FROM staged_marks WHERE line NOT IN (SELECT MIN(line) FROM staged_marks GROUP BY sourced_id)',
    );
  }
  return conflicts.map((row) => ({
    line: Number(row.line),
    sourcedId: row.sourced_id,
    firstLine: Number(row.first_line),
  }));
}

/**
 * Gives every staged mark its id: the one its row asks for, else the one the ledger gave its
 * sourcedId, else a new one above every id used. Returns rows whose id another row has as well.
 */
export async function assignMarkIds(
  connection: ImportConnection,
  highestUsed: number,
  drop: boolean,
): Promise<MarkConflict[]> {
  await connection.run('UPDATE staged_marks SET id = pinned_id WHERE pinned_id IS NOT NULL');
  await connection.run(
    'UPDATE staged_marks SET id = r.id FROM roster_ids r ' +
      "WHERE staged_marks.id IS NULL AND r.kind = 'marks' AND r.sourced_id = staged_marks.sourced_id",
  );
  const clashes = await connection.all<{ line: number; sourced_id: string; first_line: number; id: number }>(
    'SELECT s.line, s.sourced_id, f.first_line, s.id FROM staged_marks s JOIN ' +
      '(SELECT id, MIN(line) AS first_line FROM staged_marks WHERE id IS NOT NULL GROUP BY id HAVING COUNT(*) > 1) f ' +
      `ON f.id = s.id WHERE s.line <> f.first_line ORDER BY s.line LIMIT ${REPORTED}`,
  );
  if (drop && clashes.length > 0) {
    await connection.run(
      'DELETE FROM staged_marks WHERE id IS NOT NULL AND line NOT IN ' +
        '(SELECT MIN(line) FROM staged_marks WHERE id IS NOT NULL GROUP BY id)',
    );
  }
  const [top] = await connection.all<{ top: number | null }>('SELECT MAX(id) AS top FROM staged_marks');
  await connection.run(
    'UPDATE staged_marks SET id = n.position + ? FROM ' +
      '(SELECT line, ROW_NUMBER() OVER (ORDER BY line) AS position FROM staged_marks WHERE id IS NULL) n ' +
      'WHERE staged_marks.line = n.line',
    [Math.max(highestUsed, Number(top?.top ?? 0))],
  );
  return clashes.map((row) => ({
    line: Number(row.line),
    sourcedId: row.sourced_id,
    firstLine: Number(row.first_line),
    id: Number(row.id),
  }));
}

/** A delta's results no newer than the store's copy change nothing. */
export async function dropUnchangedMarks(connection: ImportConnection): Promise<void> {
  await connection.run(
    'DELETE FROM staged_marks WHERE deleted = 0 AND modified_at IS NOT NULL AND EXISTS (SELECT 1 FROM roster_ids r ' +
      "WHERE r.kind = 'marks' AND r.sourced_id = staged_marks.sourced_id " +
      'AND r.modified_at >= staged_marks.modified_at)',
  );
}

/**
 * What the staged results do to the store's marks: added (a sourcedId whose mark the store does not
 * hold), changed (one it holds) and, for a delta, deleted (tobedeleted, held); a bulk import
 * deletes the held marks it does not bring again.
 */
export async function stagedMarkChanges(
  connection: ImportConnection,
  bulk: boolean,
): Promise<{ added: number; changed: number; deleted: number }> {
  const [row] = await connection.all<{ added: number | null; changed: number | null; deleted: number | null }>(
    'SELECT SUM(CASE WHEN s.deleted = 0 AND h.id IS NULL THEN 1 ELSE 0 END) AS added, ' +
      'SUM(CASE WHEN s.deleted = 0 AND h.id IS NOT NULL THEN 1 ELSE 0 END) AS changed, ' +
      'SUM(CASE WHEN s.deleted <> 0 AND h.id IS NOT NULL THEN 1 ELSE 0 END) AS deleted ' +
      'FROM staged_marks s LEFT JOIN (SELECT r.sourced_id, m.id FROM roster_ids r JOIN marks m ON m.id = r.id ' +
      "WHERE r.kind = 'marks') h ON h.sourced_id = s.sourced_id",
  );
  const added = Number(row?.added ?? 0);
  const changed = Number(row?.changed ?? 0);
  if (!bulk) return { added, changed, deleted: Number(row?.deleted ?? 0) };
  const [stored] = await connection.all<{ count: number }>('SELECT COUNT(*) AS count FROM marks');
  return { added, changed, deleted: Math.max(Number(stored?.count ?? 0) - changed, 0) };
}

export async function stagedMarkCount(connection: ImportConnection): Promise<number> {
  const [row] = await connection.all<{ count: number }>('SELECT COUNT(*) AS count FROM staged_marks WHERE deleted = 0');
  return Number(row?.count ?? 0);
}

/** Writes the staged marks into the school (replacing marks of the same id) and their ids into the ledger. */
export async function writeStagedMarks(connection: ImportConnection, upsert: boolean): Promise<void> {
  const conflict = upsert
    ? ' ON CONFLICT (id) DO UPDATE SET assessment_id = excluded.assessment_id, ' +
      'student_record_id = excluded.student_record_id, score = excluded.score'
    : '';
  await connection.run(
    'INSERT INTO marks (id, assessment_id, student_record_id, score) ' +
      `SELECT id, assessment_id, student_record_id, score FROM staged_marks WHERE deleted = 0 ORDER BY id${conflict}`,
  );
  await connection.run(
    'DELETE FROM marks WHERE id IN (SELECT r.id FROM roster_ids r JOIN staged_marks s ' +
      "ON r.kind = 'marks' AND r.sourced_id = s.sourced_id WHERE s.deleted = 1)",
  );
  await connection.run(
    "INSERT INTO roster_ids (kind, sourced_id, id, modified_at) SELECT 'marks', sourced_id, id, modified_at " +
      'FROM staged_marks WHERE deleted = 0 ON CONFLICT (kind, sourced_id) DO UPDATE SET id = excluded.id, ' +
      'modified_at = excluded.modified_at WHERE roster_ids.id <> excluded.id ' +
      'OR roster_ids.modified_at IS DISTINCT FROM excluded.modified_at',
  );
}

/**
 * The staged marks' kept fields (roster_fields, file results.csv), written from the staging table
 * in one statement rather than held per row in memory: a delta's rows (changed or deleted) first
 * lose what was kept of them, then the rows written keep what they have. Runs after the kept
 * fields of the other files, whose bulk write clears the table. The stale rows of a delta left
 * the staging table before (dropUnchangedMarks), so what is kept of them stays as it was.
 */
export async function writeStagedMarkFields(connection: ImportConnection, delta: boolean): Promise<void> {
  if (delta) {
    await connection.run(
      "DELETE FROM roster_fields WHERE file = 'results.csv' AND sourced_id IN (SELECT sourced_id FROM staged_marks)",
    );
    // Marks a delta's deletions took with them (a deleted pupil's, a deleted line item's) keep nothing either.
    await connection.run(
      "DELETE FROM roster_fields WHERE file = 'results.csv' AND EXISTS (SELECT 1 FROM roster_ids r " +
        "WHERE r.kind = 'marks' AND r.sourced_id = roster_fields.sourced_id " +
        'AND NOT EXISTS (SELECT 1 FROM marks m WHERE m.id = r.id))',
    );
  }
  await connection.run(
    "INSERT INTO roster_fields (file, sourced_id, fields) SELECT 'results.csv', sourced_id, kept FROM staged_marks " +
      // In key order, so that the key's index grows at its end rather than page by random page.
      'WHERE deleted = 0 AND kept IS NOT NULL ORDER BY sourced_id ' +
      'ON CONFLICT (file, sourced_id) DO UPDATE SET fields = excluded.fields',
  );
}
