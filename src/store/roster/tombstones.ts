import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';
import { doomRows } from './cascaded-deletions';
import type { ImportConnection } from './import-connection';
import { SCHOOL_TABLES, type SchoolTableName } from './school-tables';

/**
 * Tombstones: the kind, sourcedId and deletion time of each record an import, a sync, an erasure
 * or a consumer's DELETE deleted, written in the transaction that deletes it, and nothing else of
 * the record.
 * The OneRoster provider answers a delta consumer with them (`tobedeleted`). A record brought back
 * under its sourcedId takes its tombstone away.
 */
const HELD = 'held_before_write';

/**
 * The tables whose records a tombstone may name: those with a sourcedId in the ledger. Marks are
 * held only as far as the write deletes them: a bulk import's marks it does not bring again, a
 * delta's results marked tobedeleted and the marks its deletions take with them (a deleted line
 * item's or pupil's); an import that deletes none (by its own count) does not read them.
 */
const TABLES = SCHOOL_TABLES.filter((table) => table.hasId && table.name !== 'marks').map((table) => table.name);

/**
 * The marks an import is about to delete: none (its count of deleted marks is nought), a bulk
 * import's that it does not bring again, or those a delta's deletions (these ids) reach.
 */
export type MarkDeletions = 'none' | 'bulk' | ReadonlyMap<SchoolTableName, readonly number[]>;

/**
 * Before an import or sync writes the school (in its transaction): the sourcedIds of the records
 * the store holds now, in a temporary table that `recordImportTombstones` compares with what is
 * held once the write is done.
 */
export async function holdBeforeWrite(connection: ImportConnection, marks: MarkDeletions): Promise<void> {
  await connection.run(`DROP TABLE IF EXISTS ${HELD}`);
  await connection.run(
    `CREATE ${connection.engine.temporaryTable} TABLE ${HELD} (kind TEXT NOT NULL, sourced_id TEXT NOT NULL, ` +
      'PRIMARY KEY (kind, sourced_id))',
  );
  for (const table of TABLES) {
    await connection.run(
      `INSERT INTO ${HELD} (kind, sourced_id) SELECT r.kind, r.sourced_id FROM roster_ids r ` +
        `JOIN ${table} t ON t.id = r.id WHERE r.kind = ? ON CONFLICT DO NOTHING`,
      [table],
    );
  }
  if (marks === 'bulk') await holdMarksNotBroughtAgain(connection);
  else if (marks !== 'none') await holdDoomedMarks(connection, marks);
}

/** A bulk import's: the marks held now whose sourcedId its results do not bring again. */
async function holdMarksNotBroughtAgain(connection: ImportConnection): Promise<void> {
  await connection.run(
    `INSERT INTO ${HELD} (kind, sourced_id) SELECT 'marks', r.sourced_id FROM roster_ids r ` +
      "JOIN marks m ON m.id = r.id WHERE r.kind = 'marks' AND NOT EXISTS (SELECT 1 FROM staged_marks s " +
      'WHERE s.sourced_id = r.sourced_id AND s.deleted = 0) ON CONFLICT DO NOTHING',
  );
}

/** A delta's: the marks its results delete and those its deletions take with them, by their ledger's sourcedId. */
async function holdDoomedMarks(
  connection: ImportConnection,
  deleted: ReadonlyMap<SchoolTableName, readonly number[]>,
): Promise<void> {
  try {
    await doomRows(connection, deleted);
    await connection.run(
      `INSERT INTO ${HELD} (kind, sourced_id) SELECT 'marks', r.sourced_id FROM doomed_rows d ` +
        "JOIN roster_ids r ON r.kind = 'marks' AND r.id = d.id WHERE d.kind = 'marks' ON CONFLICT DO NOTHING",
    );
  } finally {
    await connection.run('DROP TABLE IF EXISTS doomed_rows');
  }
}

/**
 * Once the write is done (in its transaction): a tombstone, dated `at`, for each record held
 * before that is held no more, and none left for a record held now.
 */
export async function recordImportTombstones(connection: ImportConnection, at: string): Promise<void> {
  for (const table of [...TABLES, 'marks']) {
    await connection.run(
      `INSERT INTO roster_tombstones (kind, sourced_id, deleted_at) SELECT h.kind, h.sourced_id, ? FROM ${HELD} h ` +
        `WHERE h.kind = ? AND NOT EXISTS (SELECT 1 FROM roster_ids r JOIN ${table} t ON t.id = r.id ` +
        'WHERE r.kind = h.kind AND r.sourced_id = h.sourced_id) ' +
        'ON CONFLICT (kind, sourced_id) DO UPDATE SET deleted_at = excluded.deleted_at',
      [at, table],
    );
    await connection.run(
      'DELETE FROM roster_tombstones WHERE kind = ? AND EXISTS (SELECT 1 FROM roster_ids r ' +
        `JOIN ${table} t ON t.id = r.id WHERE r.kind = roster_tombstones.kind ` +
        'AND r.sourced_id = roster_tombstones.sourced_id)',
      [table],
    );
  }
  await connection.run(`DROP TABLE IF EXISTS ${HELD}`);
}

/**
 * In an erasure's transaction, before the ledger's rows of the people go: a tombstone for each of
 * them (a student and their guardians, or a teacher) that an import brought, by its sourcedId alone.
 */
export async function recordErasureTombstones(
  transaction: Session,
  people: ReadonlyArray<{ readonly kind: 'students' | 'guardians' | 'teachers'; readonly id: number }>,
  at: string,
): Promise<void> {
  for (const person of people) {
    const ledger = await transaction.db
      .selectFrom('roster_ids')
      .select('sourced_id')
      .where('kind', '=', person.kind)
      .where('id', '=', person.id)
      .execute();
    for (const { sourced_id } of ledger) {
      await transaction.db
        .insertInto('roster_tombstones')
        .values({ kind: person.kind, sourced_id, deleted_at: at })
        .onConflict((conflict) => conflict.columns(['kind', 'sourced_id']).doUpdateSet({ deleted_at: at }))
        .execute();
    }
  }
}

/** Tombstones written per statement, within every engine's limit of bound parameters. */
const TOMBSTONE_BATCH = 300;

/**
 * In the transaction of a consumer's DELETE: a tombstone, dated `at`, for each record of `kind`
 * it deleted (a line item, and the results that went with it), as an import leaves one.
 */
export async function recordTombstones(
  { db }: Session,
  kind: 'assessments' | 'marks',
  sourcedIds: readonly string[],
  at: string,
): Promise<void> {
  for (let start = 0; start < sourcedIds.length; start += TOMBSTONE_BATCH) {
    const rows = sourcedIds
      .slice(start, start + TOMBSTONE_BATCH)
      .map((sourced_id) => ({ kind, sourced_id, deleted_at: at }));
    await db
      .insertInto('roster_tombstones')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['kind', 'sourced_id']).doUpdateSet((eb) => ({ deleted_at: eb.ref('excluded.deleted_at') })),
      )
      .execute();
  }
}

// Run on every record a consumer creates: built and compiled once (see compiled-query.ts).
const forgetQuery = compiledQuery((db, p: { kind: string; sourcedId: string }) =>
  db.deleteFrom('roster_tombstones').where('kind', '=', p.kind).where('sourced_id', '=', p.sourcedId),
);

/** A record a consumer writes anew under a sourcedId that was deleted is no longer deleted: its tombstone goes. */
export async function forgetTombstone(transaction: Session, kind: string, sourcedId: string): Promise<void> {
  await forgetQuery(transaction, { kind, sourcedId });
}

/** The tombstones of records of `kinds` deleted at `since` or later, oldest first. */
export async function tombstonesSince(
  { db }: Session,
  kinds: readonly string[],
  since: string,
): Promise<Array<{ kind: string; sourcedId: string; deletedAt: string }>> {
  if (kinds.length === 0) return [];
  const rows = await db
    .selectFrom('roster_tombstones')
    .select(['kind', 'sourced_id', 'deleted_at'])
    .where('kind', 'in', [...kinds])
    .where('deleted_at', '>=', since)
    .orderBy('deleted_at')
    .orderBy('sourced_id')
    .execute();
  return rows.map((row) => ({ kind: row.kind, sourcedId: row.sourced_id, deletedAt: row.deleted_at }));
}

/** Deletes the tombstones of records deleted before `before`; how many. */
export async function pruneTombstones({ db }: Session, before: string): Promise<number> {
  const result = await db.deleteFrom('roster_tombstones').where('deleted_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
