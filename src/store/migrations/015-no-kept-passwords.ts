import { type Kysely, sql } from 'kysely';
import type { Engine } from '../engine';

/**
 * A users.csv `password` was once kept with a user's other fields, for an export to give back. The
 * service stores no password: those kept are removed here, so that no export, backup or copy of the
 * store holds one. On SQLite the space they took is zeroed (secure_delete), as a backup copies the
 * file's free pages too.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  const { rows } = await sql<{ file: string; sourced_id: string; fields: string }>`
    select file, sourced_id, fields from roster_fields where lower(fields) like ${'%password%'}`.execute(db);
  await engine.withSecureDelete(db, async () => {
    for (const row of rows) {
      const fields = JSON.parse(row.fields) as Record<string, string>;
      const kept = Object.entries(fields).filter(([name]) => name.trim().toLowerCase() !== 'password');
      if (kept.length === Object.keys(fields).length) continue;
      await sql`update roster_fields set fields = ${JSON.stringify(Object.fromEntries(kept))}
        where file = ${row.file} and sourced_id = ${row.sourced_id}`.execute(db);
    }
  });
}
