import { CompiledQuery, type Insertable } from 'kysely';
import type { Database } from './schema';
import type { Session } from './session';

/** Rows per statement, under both engines' limits on bound parameters. */
const BATCH = 100;

/**
 * Appends rows of one table with statements compiled once per engine and row count, run again with
 * new parameters. Building a many-row insert through the query builder walks every value and cost
 * more than writing the rows (the audit trail's thousands a second); the compiled SQL is the same
 * text each time, so SQLite's statement cache keeps it prepared as well.
 */
export function batchInserter<Table extends keyof Database>(
  table: Table,
  columns: readonly (keyof Insertable<Database[Table]> & string)[],
): (session: Session, rows: readonly Insertable<Database[Table]>[]) => Promise<void> {
  const compiled = new Map<string, string>();
  const statementFor = (session: Session, count: number): string => {
    const key = `${session.engine} ${count}`;
    let sql = compiled.get(key);
    if (sql === undefined) {
      const placeholder = Object.fromEntries(columns.map((column) => [column, null]));
      const rows = Array.from({ length: count }, () => placeholder) as unknown as Insertable<Database[Table]>[];
      // biome-ignore lint/suspicious/noExplicitAny: kysely's insert types do not follow a generic table.
      sql = (session.db.insertInto(table) as any).values(rows).compile().sql as string;
      compiled.set(key, sql);
    }
    return sql;
  };
  return async (session, rows) => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const chunk = rows.slice(start, start + BATCH) as Record<string, unknown>[];
      const parameters = chunk.flatMap((row) => columns.map((column) => row[column] ?? null));
      await session.db.executeQuery(CompiledQuery.raw(statementFor(session, chunk.length), parameters));
    }
  };
}
