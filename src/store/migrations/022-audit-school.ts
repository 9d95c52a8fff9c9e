import type { Kysely } from 'kysely';

/**
 * The school an audited call was answered at: a district school's sourcedId, so that an entry read
 * beside other schools' entries (or out of an archived store) still says whose it is; null at the
 * deployment's own school, and for every entry written before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('school', 'text').execute();
}
