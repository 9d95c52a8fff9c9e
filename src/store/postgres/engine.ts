import { CompiledQuery, sql } from 'kysely';
import { countedRows, type Engine, type StoreColumn, type TableReference } from '../engine';

const LOCK_ONE_BUCKET = 'select pg_advisory_xact_lock(hashtext($1))';

/** PostgreSQL's spelling of the SQL the two engines differ on (see ../engine.ts). */
export const postgresEngine: Engine = {
  name: 'postgres',
  title: 'PostgreSQL',
  demoOnFirstStart: false,

  jsonRows: (fields) => sql`coalesce(json_agg(json_build_array(${fields})), '[]'::json)`,
  claimLock: sql`for update skip locked`,
  // Transaction-scoped advisory locks, taken in the order given (the subquery's order is the order
  // the aggregate takes them in), so that two calls locking the same buckets cannot deadlock.
  lockBuckets: async (db, buckets) => {
    if (buckets.length === 0) return;
    // Most calls lock one bucket: its statement is written once, where kysely would build the
    // template below afresh on every call.
    if (buckets.length === 1) {
      await db.executeQuery(CompiledQuery.raw(LOCK_ONE_BUCKET, [buckets[0]]));
      return;
    }
    await sql`select count(pg_advisory_xact_lock(hashtext(bucket))) from (
        select bucket from unnest(${[...buckets]}::text[]) with ordinality as given(bucket, position)
        order by position
      ) as ordered`.execute(db);
  },
  sizeBytes: async (db) => {
    const { rows } = await sql<{ bytes: number }>`select pg_database_size(current_database()) as bytes`.execute(db);
    return Number(rows[0]?.bytes ?? 0);
  },
  tableNames: async (db) => {
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
    return rows.map((row) => row.name);
  },
  // The first schema of the search_path that exists: "public", or a district school's own schema.
  storeSchema: async (db) => {
    const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
    const schema = rows[0]?.schema;
    // Refused here, rather than by the migrations' first table with a message that does not say why.
    if (!schema) throw new Error("no schema of the store's search_path exists (a school's schema removed?)");
    return schema;
  },
  foreignKeys: async (db) => {
    const { rows } = await sql<TableReference>`select t.relname as "table", r.relname as "references"
      from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
      where c.contype = 'f' and t.relnamespace = current_schema()::regnamespace`.execute(db);
    return rows;
  },
  columns: async (db) => {
    const { rows } = await sql<StoreColumn>`select c.table_name as "table", c.column_name as "column"
      from information_schema.columns c join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'`.execute(db);
    return rows;
  },
  announceReferenceChange: async (db, channel) => {
    await sql`select pg_notify(${channel}, '')`.execute(db);
  },

  temporaryTable: 'TEMPORARY',
  floatType: 'DOUBLE PRECISION',
  jsonKeys: (table, column, where) =>
    `SELECT DISTINCT jsonb_object_keys(f.${column}::jsonb) AS name FROM ${table} f WHERE ${where} ORDER BY 1`,
  jsonText: (column) => `(${column}::jsonb ->> CAST(? AS text))`,
  jsonKeyParameter: (key) => key,

  identityPrimaryKey: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  binaryType: 'bytea',
  appendOnlyTable: sql``,
  // An import sets its constraints deferred, to check them at its commit.
  deferrableReferences: async (db, references) => {
    for (const [table, column] of references) {
      await sql
        .raw(`ALTER TABLE ${table} ALTER CONSTRAINT ${table}_${column}_fkey DEFERRABLE INITIALLY IMMEDIATE`)
        .execute(db);
    }
  },
  countChanges: async (db, tables, channel) => {
    await sql`create function bump_reference_version() returns trigger language plpgsql as $$
      begin
        update reference_versions set version = version + 1 where id = 1;
        perform pg_notify(${sql.lit(channel)}, '');
        return null;
      end $$`.execute(db);
    for (const table of tables) {
      await sql`create trigger ${sql.id(`${table}_changed`)}
        after insert or update or delete or truncate on ${sql.table(table)}
        for each statement execute function bump_reference_version()`.execute(db);
    }
  },
  // Statement triggers: a bulk load moves the counter once a statement, not once a row. Where some
  // rows are not counted, the statement's rows (its transition table) are looked at first.
  countRowChanges: async (db, counter, tables) => {
    const bump = sql`update ${sql.table(counter)} set version = version + 1 where id = 1`;
    await sql`create function ${sql.id(`bump_${counter}`)}() returns trigger language plpgsql as $$
      begin ${bump}; return null; end $$`.execute(db);
    for (const table of tables) {
      const counts = countedRows(table);
      const every = counts ? sql.raw('truncate') : sql.raw('insert or update or delete or truncate');
      await sql`create trigger ${sql.id(`${table.table}_${counter}`)} after ${every} on ${sql.table(table.table)}
        for each statement execute function ${sql.id(`bump_${counter}`)}()`.execute(db);
      if (!counts) continue;
      const counted = sql.id(`bump_${counter}_${table.table}`);
      await sql`create function ${counted}() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from changed where ${counts}) then ${bump}; end if;
          return null;
        end $$`.execute(db);
      // A trigger with a transition table takes one event.
      for (const [event, rows] of [
        ['insert', 'new'],
        ['update', 'new'],
        ['delete', 'old'],
      ] as const) {
        const name = sql.id(`${table.table}_${event}_${counter}`);
        await sql`create trigger ${name} after ${sql.raw(event)} on ${sql.table(table.table)}
          referencing ${sql.raw(rows)} table as changed
          for each statement execute function ${counted}()`.execute(db);
      }
    }
  },
  dropNotNull: async (db, table, column) => {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} drop not null`.execute(db);
  },
  // Deleted rows stay as dead tuples until a vacuum, whatever a setting says.
  withSecureDelete: (_db, work) => work(),
};
