import type { ImportConnection } from './import-connection';
import { NULLABLE_REFERENCES, SCHOOL_TABLES, type SchoolTableName } from './school-tables';

/**
 * The rows a delta's deletions take with them (deleteWithDependents follows the same references),
 * per table: a class's enrolments, an assessment's marks, a student's records and their marks and
 * attendance. Worked out in the import's own connection before anything is written, so that a dry
 * run and the real run count the same. `deleted`: the ids a delta deletes itself, per table; the
 * marks it deletes itself are the staged results marked tobedeleted. A row reached by two paths
 * (a mark of a deleted assessment and of a deleted student) is counted once; a row the delta
 * deletes itself is not counted here (it is among the delta's own deletions).
 */
export async function cascadedDeletions(
  connection: ImportConnection,
  deleted: ReadonlyMap<SchoolTableName, readonly number[]>,
): Promise<Map<SchoolTableName, number>> {
  try {
    await doomRows(connection, deleted);
    const rows = await connection.all<{ kind: SchoolTableName; count: number }>(
      'SELECT kind, COUNT(*) AS count FROM doomed_rows WHERE direct = 0 GROUP BY kind',
    );
    return new Map(rows.map((row) => [row.kind, Number(row.count)]));
  } finally {
    await connection.run('DROP TABLE IF EXISTS doomed_rows');
  }
}

/**
 * Fills `doomed_rows` (kind, id, direct), a temporary table of the connection, with every row the
 * delta's deletions reach, its own (direct = 1) and those they take with them; the caller drops it.
 */
export async function doomRows(
  connection: ImportConnection,
  deleted: ReadonlyMap<SchoolTableName, readonly number[]>,
): Promise<void> {
  const temporary = connection.engine.temporaryTable;
  await connection.run('DROP TABLE IF EXISTS doomed_rows');
  await connection.run(
    `CREATE ${temporary} TABLE doomed_rows (kind TEXT NOT NULL, id INTEGER NOT NULL, direct INTEGER NOT NULL, ` +
      'PRIMARY KEY (kind, id))',
  );
  // The kinds with a row to delete so far: a delta that deletes nothing reads none of the school's tables.
  const doomed = new Set<string>();
  // Parents come before children in SCHOOL_TABLES: a table's doomed parents are all known when it is reached.
  for (const table of SCHOOL_TABLES) {
    if (!table.hasId) continue;
    const ids = deleted.get(table.name) ?? [];
    const own = ids.map((id) => [table.name, id, 1]);
    await connection.insert('doomed_rows', ['kind', 'id', 'direct'], own, ' ON CONFLICT DO NOTHING');
    let count = own.length;
    if (table.name === 'marks') count += await doomStagedMarkDeletions(connection);
    for (const [column, parent] of Object.entries(table.references)) {
      // A reference that may be empty is emptied, not deleted with what it names.
      if (!doomed.has(parent) || NULLABLE_REFERENCES.has(`${table.name}.${column}`)) continue;
      count += await connection.run(
        `INSERT INTO doomed_rows (kind, id, direct) SELECT ?, id, 0 FROM ${table.name} ` +
          `WHERE ${column} IN (SELECT id FROM doomed_rows WHERE kind = ?) ON CONFLICT DO NOTHING`,
        [table.name, parent],
      );
    }
    if (count > 0) doomed.add(table.name);
  }
}

/** The stored marks a delta's results delete themselves (tobedeleted): theirs, not taken with another record. */
async function doomStagedMarkDeletions(connection: ImportConnection): Promise<number> {
  return connection.run(
    "INSERT INTO doomed_rows (kind, id, direct) SELECT 'marks', m.id, 1 FROM staged_marks s " +
      "JOIN roster_ids r ON r.kind = 'marks' AND r.sourced_id = s.sourced_id JOIN marks m ON m.id = r.id " +
      'WHERE s.deleted = 1 ON CONFLICT DO NOTHING',
  );
}
