import { DEFAULT_MIGRATION_TABLE as MIGRATION_TABLE, Migrator, type Kysely, type Migration, sql } from 'kysely';
import type { Engine } from './engine';
import * as school from './migrations/001-school';
import * as documents from './migrations/002-documents';
import * as notifications from './migrations/003-notifications';
import * as access from './migrations/004-access';
import * as roster from './migrations/005-roster';
import * as serviceProcesses from './migrations/006-service-processes';
import * as referenceVersions from './migrations/007-reference-versions';
import * as callerSecretGrace from './migrations/008-caller-secret-grace';
import * as storeKeyFingerprint from './migrations/009-store-key-fingerprint';
import * as examSlotsByClass from './migrations/010-exam-slots-by-class';
import * as shadowComparisons from './migrations/011-shadow-comparisons';
import * as sisSync from './migrations/012-sis-sync';
import * as enrolmentsWithoutSection from './migrations/013-enrolments-without-class-section';
import * as rosterFieldsGivenBack from './migrations/014-roster-fields-given-back';
import * as noKeptPasswords from './migrations/015-no-kept-passwords';
import * as sisSyncChanges from './migrations/016-sis-sync-changes';
import * as subjectErasures from './migrations/017-subject-erasures';
import * as studentsLeft from './migrations/018-students-left';
import * as rosterTombstones from './migrations/019-roster-tombstones';
import * as rosterVersions from './migrations/020-roster-versions';
import * as districtCallers from './migrations/021-district-callers';
import * as auditSchool from './migrations/022-audit-school';
import * as rosterOutlines from './migrations/023-roster-outlines';

/**
 * The migrations in order. Each is written once for both engines and told which one it runs on
 * where their SQL differs (identity and binary columns).
 */
const MIGRATIONS: ReadonlyArray<[name: string, up: (db: Kysely<unknown>, engine: Engine) => Promise<void>]> = [
  ['001-school', school.up],
  ['002-documents', documents.up],
  ['003-notifications', notifications.up],
  ['004-access', access.up],
  ['005-roster', roster.up],
  ['006-service-processes', serviceProcesses.up],
  ['007-reference-versions', referenceVersions.up],
  ['008-caller-secret-grace', callerSecretGrace.up],
  ['009-store-key-fingerprint', storeKeyFingerprint.up],
  ['010-exam-slots-by-class', examSlotsByClass.up],
  ['011-shadow-comparisons', shadowComparisons.up],
  ['012-sis-sync', sisSync.up],
  ['013-enrolments-without-class-section', enrolmentsWithoutSection.up],
  ['014-roster-fields-given-back', rosterFieldsGivenBack.up],
  ['015-no-kept-passwords', noKeptPasswords.up],
  ['016-sis-sync-changes', sisSyncChanges.up],
  ['017-subject-erasures', subjectErasures.up],
  ['018-students-left', studentsLeft.up],
  ['019-roster-tombstones', rosterTombstones.up],
  ['020-roster-versions', rosterVersions.up],
  ['021-district-callers', districtCallers.up],
  ['022-audit-school', auditSchool.up],
  ['023-roster-outlines', rosterOutlines.up],
];

/**
 * Whether the store has run exactly this version's migrations, read in one statement: then there is
 * nothing to migrate. kysely's migrator would find the same, but only after reading the catalog of
 * every table twice and taking its lock in a transaction, which made up most of a district school's
 * opening. Anything else (a new store without the record, a store behind or ahead of this version,
 * a store that cannot be read) is left to the migrator, which migrates or refuses as before.
 */
async function runsThisVersion(db: Kysely<unknown>, schema: string | undefined): Promise<boolean> {
  const record = sql.table(schema === undefined ? MIGRATION_TABLE : `${schema}.${MIGRATION_TABLE}`);
  try {
    const { rows } = await sql<{ name: string }>`select name from ${record}`.execute(db);
    const applied = new Set(rows.map((row) => row.name));
    return applied.size === MIGRATIONS.length && MIGRATIONS.every(([name]) => applied.has(name));
  } catch {
    return false;
  }
}

export async function migrateToLatest(db: Kysely<unknown>, engine: Engine): Promise<string[]> {
  // Without a schema, kysely takes a record in any schema of the database for this store's.
  const migrationTableSchema = await engine.storeSchema(db);
  if (await runsThisVersion(db, migrationTableSchema)) return [];
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.map(([name, up]) => [name, { up: (migrating: Kysely<unknown>) => up(migrating, engine) }]),
  );
  const migrator = new Migrator({ db, migrationTableSchema, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

/** How the store's migrations stand against this version's: those it lacks, and those this version does not know. */
export interface MigrationState {
  readonly missing: readonly string[];
  readonly unknown: readonly string[];
}

/**
 * The migrations applied to the store, against this version's list. A process migrates the store as
 * it starts, so a store another node has since migrated further, or a restored older copy, shows
 * here; kysely keeps its record of applied migrations in kysely_migration.
 */
export async function migrationState(db: Kysely<unknown>): Promise<MigrationState> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const applied = new Set(rows.map((row) => row.name));
  const known = new Set(MIGRATIONS.map(([name]) => name));
  return {
    missing: [...known].filter((name) => !applied.has(name)),
    unknown: [...applied].filter((name) => !known.has(name)),
  };
}
