import type { Command } from 'commander';
import { loadConfig } from '../config/service-config';
import { describeSchool, type SchoolEntry, SchoolEntryError, schoolEntry } from '../district/school-entry';
import { firstClash, MAX_SCHOOLS, readSchoolList, readSchools, writeSchools } from '../district/school-list';
import { schoolStoreSettings } from '../district/school-store-place';
import { schoolStoresOf } from '../store/engines';
import { openStore } from '../store/open-store';
import { shownSchoolSettings } from '../district/school-settings';
import { registerSchoolSettingsCommands } from './school-settings';
import { removeSchool } from './schools-remove';
import { UsageError } from './usage-error';

/** school-service schools add|list|remove: the schools one deployment serves, each on its own store. */

interface AddOptions {
  readonly path: string;
  readonly host?: string;
  readonly name?: string;
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

/** A school as `schools list` shows it: its own settings with their secrets masked, as nowhere else prints them. */
function shown(school: SchoolEntry): SchoolEntry {
  return school.settings ? { ...school, settings: shownSchoolSettings(school.settings) } : school;
}

async function addSchool(sourcedId: string, options: AddOptions): Promise<void> {
  const config = loadConfig();
  const entry = schoolEntry({ sourcedId, path: options.path, host: options.host, name: options.name });
  const { schools, removing } = readSchoolList(config.dataDirectory);
  if (schools.length + removing.length >= MAX_SCHOOLS) {
    throw new UsageError(`a deployment serves at most ${MAX_SCHOOLS} schools`);
  }
  if (removing.some((school) => school.sourcedId === entry.sourcedId)) {
    throw new UsageError(`${entry.sourcedId} is being removed: run schools remove ${entry.sourcedId} --yes to finish`);
  }
  const clash = firstClash([...schools, entry]);
  if (clash) throw new UsageError(`not added: ${clash}`);
  const settings = schoolStoreSettings(config, entry.sourcedId);
  // The store is made now (and migrated), so that import, callers and the service find it ready.
  await schoolStoresOf(settings).make(settings);
  const store = await openStore(settings);
  await store.close();
  writeSchools(config.dataDirectory, [...schools, entry]);
  process.stdout.write(
    `Added school ${describeSchool(entry)}; its store: ${schoolStoresOf(settings).where(settings)}.\n`,
  );
  process.stdout.write('A running service serves it within a second.\n');
}

function listSchools(options: { json: boolean }): void {
  const config = loadConfig();
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
    process.stdout.write(`${describeSchool(school)}\n${settings.join('')}`);
  }
}

export function registerSchoolsCommand(program: Command): void {
  const schools = program
    .command('schools')
    .description('the schools this deployment serves, each at its own path on a store of its own');
  schools
    .command('add <sourcedId>')
    .description('register a school by its OneRoster org sourcedId and make its store')
    .requiredOption('--path <path>', 'where its endpoints answer: /slug for /slug/<Endpoint>.asmx')
    .option('--host <host>', 'a host name it is also reached at, on the bare paths')
    .option('--name <name>', 'its name, for people')
    .action((sourcedId: string, options: AddOptions) => asUsage(() => addSchool(sourcedId, options)));
  schools
    .command('list')
    .description('the registered schools')
    .option('--json', 'print them as JSON', false)
    .action((options: { json: boolean }) => asUsage(async () => listSchools(options)));
  schools
    .command('remove <sourcedId>')
    .description('stop serving a school, archive its store to BACKUP_DIR, then delete it and its registration')
    .option('--yes', 'do it; without it, say what would go and exit 2', false)
    .action((sourcedId: string, options: { yes: boolean }) =>
      asUsage(() => removeSchool(loadConfig(), sourcedId, options)),
    );
  registerSchoolSettingsCommands(schools, asUsage);
}
