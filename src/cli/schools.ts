import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { type Config, loadConfig } from '../config/service-config';
import { type SchoolEntry, SchoolEntryError, schoolEntry } from '../district/school-entry';
import { firstClash, MAX_SCHOOLS, readSchools, schoolFolder, writeSchools } from '../district/school-list';
import { counted } from '../lib/counted';
import { backupStore } from '../store/backup/backup-store';
import { openStore } from '../store/open-store';
import { shownSchoolSettings } from '../district/school-settings';
import { registerSchoolSettingsCommands } from './school-settings';
import { UsageError } from './usage-error';

/** school-service schools add|list|remove: the schools one deployment serves, each on its own store. */

interface AddOptions {
  readonly path: string;
  readonly host?: string;
  readonly name?: string;
}

/** The deployment's settings, refused when its store is PostgreSQL: a district is served on SQLite for now. */
function districtConfig(): Config {
  const config = loadConfig();
  if (config.databaseUrl !== undefined) {
    throw new UsageError(
      'schools are served each on an SQLite store of its own under DATA_DIR: unset DATABASE_URL ' +
        '(a district on PostgreSQL is not served yet)',
    );
  }
  return config;
}

/** Runs a schools command, a refused entry or list reported as wrong usage (exit code 2). */
async function asUsage(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof SchoolEntryError) throw new UsageError(error.message);
    throw error;
  }
}

function describe(school: SchoolEntry): string {
  const host = school.host ? `, host ${school.host}` : '';
  const name = school.name ? ` "${school.name}"` : '';
  return `${school.sourcedId}${name} at ${school.path}${host}`;
}

/** A school as `schools list` shows it: its own settings with their secrets masked, as nowhere else prints them. */
function shown(school: SchoolEntry): SchoolEntry {
  return school.settings ? { ...school, settings: shownSchoolSettings(school.settings) } : school;
}

async function addSchool(sourcedId: string, options: AddOptions): Promise<void> {
  const config = districtConfig();
  const entry = schoolEntry({ sourcedId, path: options.path, host: options.host, name: options.name });
  const schools = readSchools(config.dataDirectory);
  if (schools.length >= MAX_SCHOOLS) throw new UsageError(`a deployment serves at most ${MAX_SCHOOLS} schools`);
  const clash = firstClash([...schools, entry]);
  if (clash) throw new UsageError(`not added: ${clash}`);
  const folder = schoolFolder(config.dataDirectory, entry.sourcedId);
  // The store is made now, so that import, callers and the service find it ready.
  const store = await openStore({ databaseUrl: undefined, dataDirectory: folder });
  await store.close();
  writeSchools(config.dataDirectory, [...schools, entry]);
  process.stdout.write(`Added school ${describe(entry)}; its store: ${store.location}.\n`);
  process.stdout.write('The service serves it from its next start.\n');
}

function listSchools(options: { json: boolean }): void {
  const config = districtConfig();
  const schools = readSchools(config.dataDirectory);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(schools.map(shown), null, 2)}\n`);
    return;
  }
  if (schools.length === 0) {
    process.stdout.write('No schools added: the deployment serves one school at the bare paths.\n');
    return;
  }
  for (const school of schools.map(shown)) {
    const settings = Object.entries(school.settings ?? {}).map(([name, value]) => `  ${name}=${value}\n`);
    process.stdout.write(`${describe(school)}\n${settings.join('')}`);
  }
}

/** The files of a school's folder and their size, for the operator to see what a removal takes. */
function folderContents(folder: string): { files: string[]; bytes: number } {
  if (!existsSync(folder)) return { files: [], bytes: 0 };
  const files = readdirSync(folder).map((name) => join(folder, name));
  return { files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

/** A backup's name that says whose and when, unique to the second. */
function archiveName(sourcedId: string, now: Date): string {
  return `school-${sourcedId}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.sqlite`;
}

async function removeSchool(sourcedId: string, options: { yes: boolean }): Promise<void> {
  const config = districtConfig();
  const schools = readSchools(config.dataDirectory);
  const school = schools.find((candidate) => candidate.sourcedId === sourcedId);
  if (!school) throw new UsageError(`no school "${sourcedId.slice(0, 80)}" in this deployment (see schools list)`);
  const folder = schoolFolder(config.dataDirectory, school.sourcedId);
  const backupDirectory = process.env.BACKUP_DIR;
  if (!backupDirectory || !existsSync(backupDirectory)) {
    throw new UsageError('set BACKUP_DIR to an existing folder: a school removed is archived there first');
  }
  const target = resolve(backupDirectory, archiveName(school.sourcedId, new Date()));
  const { files, bytes } = folderContents(folder);
  if (!options.yes) {
    process.stdout.write(
      `Would remove school ${describe(school)}: its store would be archived to ${target}, then its folder ` +
        `${folder} deleted (${counted(files.length, 'file')}, ${counted(bytes, 'byte')}). Run again with --yes.\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (existsSync(target)) throw new UsageError(`${target} exists already: try again in a second`);
  const backup = await backupStore({ databaseUrl: undefined, dataDirectory: folder }, target);
  writeSchools(
    config.dataDirectory,
    schools.filter((candidate) => candidate !== school),
  );
  rmSync(folder, { recursive: true, force: true });
  process.stdout.write(
    `Removed school ${describe(school)}: archived to ${target} (${backup.kind}, ${counted(backup.bytes, 'byte')}), ` +
      `then ${folder} deleted. Restart the service for its paths to answer 404.\n`,
  );
}

export function registerSchoolsCommand(program: Command): void {
  const schools = program
    .command('schools')
    .description('the schools this deployment serves, each at its own path on a store of its own');
  schools
    .command('add <sourcedId>')
    .description('register a school by its OneRoster org sourcedId and make its store')
    .requiredOption('--path <path>', 'where its endpoints answer: /slug for /slug/<Endpoint>.asmx')
    .option('--host <host>', 'the host name it is known by (kept in the list; served by path for now)')
    .option('--name <name>', 'its name, for people')
    .action((sourcedId: string, options: AddOptions) => asUsage(() => addSchool(sourcedId, options)));
  schools
    .command('list')
    .description('the registered schools')
    .option('--json', 'print them as JSON', false)
    .action((options: { json: boolean }) => asUsage(async () => listSchools(options)));
  schools
    .command('remove <sourcedId>')
    .description("archive a school's store to BACKUP_DIR, then delete it and its registration")
    .option('--yes', 'do it; without it, say what would go and exit 2', false)
    .action((sourcedId: string, options: { yes: boolean }) => asUsage(() => removeSchool(sourcedId, options)));
  registerSchoolSettingsCommands(schools, asUsage);
}
