import { createHash } from 'node:crypto';
import { Client } from 'pg';
import type { EngineSettings, SchoolStores } from '../engine-driver';
import { withoutPassword } from './url';

/** Every school's schema starts so, which no table or schema of the deployment's own store does. */
const SCHOOL_SCHEMA_PREFIX = 'school_';
/** The pattern pg_dump takes to leave the schools' schemas out of the deployment's own backup. */
export const SCHOOL_SCHEMAS_PATTERN = `${SCHOOL_SCHEMA_PREFIX}*`;
/** Letters of the sourcedId kept in the name, so that an operator's psql shows whose schema it is. */
const READABLE_PART = 40;
/** A name made only of these needs no quoting in SQL nor in the startup option that sets it. */
const SCHEMA_NAME = /^school_[a-z0-9_]{1,60}$/;
const SEARCH_PATH_OPTION = /(?:^| )-c search_path=(school_[a-z0-9_]{1,60})$/;

/**
 * The schema of the school `sourcedId`: "school_", its sourcedId in lower case with anything else
 * than a letter or digit as "_", and a digest of the sourcedId itself, so that two sourcedIds that
 * read alike ("Org-1", "org.1") never share a schema. At most 58 characters, under PostgreSQL's 63.
 */
export function schoolSchemaName(sourcedId: string): string {
  const readable = sourcedId
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '_')
    .slice(0, READABLE_PART);
  const digest = createHash('sha256').update(sourcedId).digest('hex').slice(0, 10);
  return `${SCHOOL_SCHEMA_PREFIX}${readable}_${digest}`;
}

/**
 * The school's store in the deployment's database: the same URL, whose connections start with
 * the school's schema as their search_path (libpq's and pg's `options` startup parameter), so that
 * every statement of its store, unqualified, reads and writes that schema alone.
 */
function schoolSettings(deployment: EngineSettings, sourcedId: string, folder: string): EngineSettings {
  if (!deployment.databaseUrl) throw new Error('a school on PostgreSQL needs DATABASE_URL');
  const url = new URL(deployment.databaseUrl);
  const given = url.searchParams.get('options');
  url.searchParams.delete('options');
  const option = `${given ? `${given} ` : ''}-c search_path=${schoolSchemaName(sourcedId)}`;
  // Spelt with %20, not "+": libpq (pg_dump, pg_restore) decodes only %-escapes in a URL.
  const databaseUrl = `${url.toString()}${url.search ? '&' : '?'}options=${encodeURIComponent(option)}`;
  return { databaseUrl, dataDirectory: folder };
}

/** The school's schema a store's URL names, undefined for the deployment's own store. */
export function schoolSchemaOf(databaseUrl: string): string | undefined {
  const option = new URL(databaseUrl).searchParams.get('options');
  return option === null ? undefined : SEARCH_PATH_OPTION.exec(option)?.[1];
}

function schemaOfSchool(settings: EngineSettings): { url: string; schema: string } {
  const url = settings.databaseUrl ?? '';
  const schema = url === '' ? undefined : schoolSchemaOf(url);
  if (schema === undefined || !SCHEMA_NAME.test(schema)) {
    throw new Error(`not a school's store: ${url === '' ? 'no DATABASE_URL' : withoutPassword(url)}`);
  }
  return { url, schema };
}

/** Runs one statement on a connection of its own; the name is checked against SCHEMA_NAME, so it needs no quoting. */
async function onSchema(settings: EngineSettings, statement: (schema: string) => string): Promise<void> {
  const { url, schema } = schemaOfSchool(settings);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement(schema));
  } finally {
    await client.end();
  }
}

/** Whether the school's schema is in the database. */
async function schemaExists(settings: EngineSettings): Promise<boolean> {
  const { url, schema } = schemaOfSchool(settings);
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query('select 1 from information_schema.schemata where schema_name = $1', [schema]);
    return (found.rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** Schools' stores on PostgreSQL: a schema each, in the deployment's database. */
export const postgresSchoolStores: SchoolStores = {
  settingsOf: schoolSettings,
  where: (settings) => {
    const { url, schema } = schemaOfSchool(settings);
    const database = new URL(url);
    database.searchParams.delete('options');
    return `the schema ${schema} of ${withoutPassword(database.toString())}`;
  },
  archiveSuffix: '.dump',
  make: (settings) => onSchema(settings, (schema) => `create schema if not exists ${schema}`),
  exists: schemaExists,
  // CASCADE: the schema goes with every table, sequence, function and trigger the migrations made in it.
  remove: (settings) => onSchema(settings, (schema) => `drop schema if exists ${schema} cascade`),
};
