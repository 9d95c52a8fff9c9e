import type { Command } from 'commander';
import { loadConfig } from '../config/service-config';
import type { SchoolEntry } from '../district/school-entry';
import { readSchools, writeSchools } from '../district/school-list';
import {
  checkSettingName,
  checkSettingValue,
  schoolEnvironment,
  type SchoolSettings,
} from '../district/school-settings';
import { UsageError } from './usage-error';

/**
 * school-service schools set|unset: a school's own SIS, legacy and notification settings, kept in
 * the list of schools. Values are never printed (a client secret is one): the commands name the
 * settings they changed, and `schools list` shows the values with secrets masked.
 */

/** KEY=VALUE, the name checked; the value may hold "=" (a URL's query). */
function parseAssignment(text: string): [string, string] {
  const equals = text.indexOf('=');
  if (equals < 1) throw new UsageError(`"${text.slice(0, 40).split('=')[0]}": a setting is NAME=VALUE`);
  const name = checkSettingName(text.slice(0, equals));
  return [name, checkSettingValue(name, text.slice(equals + 1))];
}

/**
 * Replaces one school's settings in the list, once the school's whole configuration reads back as
 * the service would read it (a bad value is refused, with the setting named, and nothing written).
 */
function changeSettings(sourcedId: string, change: (settings: SchoolSettings) => SchoolSettings): SchoolEntry {
  const config = loadConfig();
  const schools = readSchools(config.dataDirectory);
  const school = schools.find((candidate) => candidate.sourcedId === sourcedId);
  if (!school) throw new UsageError(`no school "${sourcedId.slice(0, 80)}" in this deployment (see schools list)`);
  const settings = change(school.settings ?? {});
  loadConfig(schoolEnvironment(process.env, settings));
  const { settings: _old, ...rest } = school;
  const changed: SchoolEntry = Object.keys(settings).length === 0 ? rest : { ...rest, settings };
  writeSchools(
    config.dataDirectory,
    schools.map((candidate) => (candidate === school ? changed : candidate)),
  );
  return changed;
}

function setSettings(sourcedId: string, assignments: readonly string[]): void {
  const parsed = assignments.map(parseAssignment);
  changeSettings(sourcedId, (settings) => ({ ...settings, ...Object.fromEntries(parsed) }));
  const names = parsed.map(([name]) => name).join(', ');
  process.stdout.write(`Set ${names} for school ${sourcedId}; the service applies them from its next start.\n`);
}

function unsetSettings(sourcedId: string, names: readonly string[]): void {
  for (const name of names) checkSettingName(name);
  changeSettings(sourcedId, (settings) =>
    Object.fromEntries(Object.entries(settings).filter(([name]) => !names.includes(name))),
  );
  process.stdout.write(
    `Unset ${names.join(', ')} for school ${sourcedId}: the deployment's apply (no SIS, no legacy service), ` +
      'from the service’s next start.\n',
  );
}

/** Adds `schools set` and `unset` to the schools command; `asUsage` reports a refused setting as wrong usage. */
export function registerSchoolSettingsCommands(
  schools: Command,
  asUsage: (action: () => Promise<void>) => Promise<void>,
) {
  schools
    .command('set <sourcedId> <settings...>')
    .description("set a school's own SIS_*, LEGACY_URL, ROUTES or notification settings: NAME=VALUE ...")
    .action((sourcedId: string, assignments: string[]) => asUsage(async () => setSettings(sourcedId, assignments)));
  schools
    .command('unset <sourcedId> <names...>')
    .description("remove a school's own settings: it takes the deployment's again (SIS and legacy: none)")
    .action((sourcedId: string, names: string[]) => asUsage(async () => unsetSettings(sourcedId, names)));
}
