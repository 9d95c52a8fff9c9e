import { type Kysely, sql } from 'kysely';
import type { Session } from '../session';

export interface StoreColumn {
  readonly table: string;
  readonly column: string;
}

/** The migrator's own record of applied migrations: names of migrations, nothing else. */
export const MIGRATOR_TABLES: ReadonlySet<string> = new Set(['kysely_migration', 'kysely_migration_lock']);

/**
 * Every column of every table the store really has, read from its catalog rather than from the
 * schema's types, so that a migration adding one shows here whether or not it was declared.
 */
export async function storeColumns(session: Session): Promise<StoreColumn[]> {
  const db = session.db as unknown as Kysely<unknown>;
  const { rows } =
    session.engine === 'sqlite'
      ? await sql<StoreColumn>`select m.name as "table", p.name as "column"
          from sqlite_master m, pragma_table_info(m.name) p
          where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\'`.execute(db)
      : await sql<StoreColumn>`select c.table_name as "table", c.column_name as "column"
          from information_schema.columns c join information_schema.tables t
            on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
  return rows.filter((row) => !MIGRATOR_TABLES.has(row.table));
}
