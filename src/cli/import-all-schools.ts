import { resolve } from 'node:path';
import { loadConfig } from '../config/service-config';
import { type SchoolEntry, SchoolEntryError, schoolEntry } from '../district/school-entry';
import { readSchools, schoolFolder, writeSchools, MAX_SCHOOLS } from '../district/school-list';
import { schoolPathFor } from '../district/school-slug';
import { counted } from '../lib/counted';
import { escapeControlCharacters } from '../lib/control-characters';
import { BundleError } from '../roster/bundle-source';
import { type BundledSchool, bundleSchools } from '../roster/bundle-schools';
import { openStore } from '../store/open-store';
import { runWithBoundedHeap } from './bounded-heap';
import { EXIT_DONE, EXIT_NOTHING_WRITTEN } from './import-exit-codes';
import type { ImportCommandOptions } from './import';
import { UsageError } from './usage-error';

export interface AllSchoolsOptions extends ImportCommandOptions {
  readonly addSchools: boolean;
}

/** The import's own options, passed on to the import of each school. */
function importArguments(path: string, sourcedId: string, options: ImportCommandOptions): string[] {
  const args = ['import', path, '--school', sourcedId, '--ids', options.ids];
  if (options.mode !== undefined) args.push('--mode', options.mode);
  if (options.dryRun) args.push('--dry-run');
  if (options.skipInvalid) args.push('--skip-invalid');
  if (options.strict) args.push('--strict');
  if (options.replace) args.push('--replace');
  return args;
}

/**
 * Registers the bundle's schools the deployment does not list (`--add-schools`), each at the path
 * its org's identifier or name gives (school-slug.ts), with its store made empty, as `schools add`
 * does; on a dry run, says which it would register and registers none.
 */
async function addBundleSchools(
  dataDirectory: string,
  bundled: readonly BundledSchool[],
  listed: readonly SchoolEntry[],
  dryRun: boolean,
): Promise<SchoolEntry[]> {
  const schools = [...listed];
  const paths = new Set(schools.map((school) => school.path));
  for (const org of bundled) {
    if (schools.some((school) => school.sourcedId === org.sourcedId)) continue;
    if (schools.length >= MAX_SCHOOLS) throw new UsageError(`a deployment serves at most ${MAX_SCHOOLS} schools`);
    let entry: SchoolEntry;
    try {
      const name = org.name.slice(0, 200).trim();
      entry = schoolEntry({ sourcedId: org.sourcedId, path: schoolPathFor(org, paths), name: name || undefined });
    } catch (error) {
      if (!(error instanceof SchoolEntryError)) throw error;
      // A sourcedId that cannot name a folder, or a name with control characters: said, and left out.
      process.stdout.write(`Not registered: ${escapeControlCharacters(error.message)}.\n`);
      continue;
    }
    paths.add(entry.path);
    process.stdout.write(`${dryRun ? 'Would register' : 'Registered'} school ${entry.sourcedId} at ${entry.path}.\n`);
    if (dryRun) continue;
    const store = await openStore({
      databaseUrl: undefined,
      dataDirectory: schoolFolder(dataDirectory, entry.sourcedId),
    });
    await store.close();
    schools.push(entry);
    // Written after each school, so that a school registered is one whose store is there.
    writeSchools(dataDirectory, schools);
  }
  return schools;
}

/**
 * `import BUNDLE --all-schools`: each school of a district bundle that the deployment lists is
 * imported into its own store, one after the other, each an import of its own (one transaction,
 * its own summary, run as `import --school` runs it). A school that fails leaves the others done;
 * the exit code is the worst of theirs (0 all written, 1 rows left out somewhere, 2 a school with
 * nothing written), and 2 when no school of the bundle is listed.
 */
export async function importAllSchools(path: string, options: AllSchoolsOptions): Promise<void> {
  if (options.school !== undefined)
    throw new UsageError('--all-schools imports every school of the bundle: leave out --school');
  const config = loadConfig();
  if (config.databaseUrl !== undefined) {
    throw new UsageError('the schools of a district are served on SQLite only for now (unset DATABASE_URL)');
  }
  const bundle = resolve(path);
  const bundled = await bundleSchools(bundle, {
    maxBytes: config.imports.maxBytes,
    deadline: Date.now() + config.imports.timeLimitMs,
    now: Date.now,
  }).catch((error: unknown) => {
    if (error instanceof BundleError) throw new UsageError(escapeControlCharacters(error.message));
    throw error;
  });
  const listed = readSchools(config.dataDirectory);
  const schools = options.addSchools
    ? await addBundleSchools(config.dataDirectory, bundled, listed, options.dryRun)
    : listed;
  const targets = schools.filter((school) => bundled.some((org) => org.sourcedId === school.sourcedId));
  const unlisted = bundled.filter((org) => !schools.some((school) => school.sourcedId === org.sourcedId));
  if (unlisted.length > 0 && !options.addSchools) {
    process.stdout.write(
      `Not imported, not listed (--add-schools registers them): ${unlisted.map((org) => org.sourcedId).join(', ')}.\n`,
    );
  }
  const codes: number[] = [];
  for (const school of targets) {
    process.stdout.write(`School ${school.sourcedId} (${school.path}):\n`);
    codes.push(await runWithBoundedHeap(importArguments(bundle, school.sourcedId, options)));
  }
  const failed = codes.filter((code) => code !== EXIT_DONE).length;
  process.stdout.write(
    `${counted(targets.length, 'school')} of the bundle's ${bundled.length} ${options.dryRun ? 'read' : 'imported'}, ` +
      `each on its own: ${targets.length - failed} whole, ${failed} not (see above).\n`,
  );
  process.exitCode = targets.length === 0 ? EXIT_NOTHING_WRITTEN : Math.max(EXIT_DONE, ...codes);
}
