import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/service-config';
import { LIST_POLL_MS } from '../district/list-watch';
import { describeSchool, type SchoolEntry } from '../district/school-entry';
import { readSchoolList, schoolFolder, writeSchoolList } from '../district/school-list';
import { schoolStoreSettings } from '../district/school-store-place';
import { counted } from '../lib/counted';
import { SEEN_WITHIN_MS } from '../status/presence';
import { backupStore } from '../store/backup/backup-store';
import type { EngineSettings } from '../store/engine-driver';
import { schoolStoresOf } from '../store/engines';
import { openStore } from '../store/open-store';
import { processesSeenSince } from '../store/queries/service-processes';
import { UsageError } from './usage-error';

/**
 * How long a running service takes at most to see the list change: its poll and then some. A
 * process that opened the school just before the change has its row among the processes serving
 * written by then, and closes the school once it sees the change.
 */
const NOTICE_MS = 2 * LIST_POLL_MS + 500;
/** How long the processes serving have to let go: a process killed without leaving is taken for gone by then. */
const LET_GO_MS = SEEN_WITHIN_MS + 15_000;
const LOOK_EVERY_MS = 100;

/** The files of a school's folder and their size, for the operator to see what a removal takes. */
function folderContents(folder: string): { files: string[]; bytes: number } {
  if (!existsSync(folder)) return { files: [], bytes: 0 };
  const files = readdirSync(folder).map((name) => join(folder, name));
  return { files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

/** A backup's name that says whose and when, unique to the second. */
function archiveName(sourcedId: string, now: Date, suffix: string): string {
  return `school-${sourcedId}-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}${suffix}`;
}

/**
 * Waits until no process serves from the school's store: each running service closes the school
 * once it sees it off the list, and removes its row among the processes serving as its last write
 * (src/school/school.ts), so that the store is archived whole and deleted under no process.
 */
async function waitUntilLetGo(settings: EngineSettings): Promise<void> {
  await sleep(NOTICE_MS);
  const store = await openStore(settings);
  try {
    const until = Date.now() + LET_GO_MS;
    for (;;) {
      const serving = await processesSeenSince(store, new Date(Date.now() - SEEN_WITHIN_MS).toISOString());
      if (serving.length === 0) return;
      if (Date.now() > until) {
        const who = serving.map((row) => `${row.node} (pid ${row.pid})`).join(', ');
        throw new Error(
          `the school is no longer served, but ${who} still hold its store after ${LET_GO_MS / 1000} s; ` +
            'nothing was archived or deleted: run schools remove again once they have let go',
        );
      }
      await sleep(LOOK_EVERY_MS);
    }
  } finally {
    await store.close();
  }
}

/** Takes the school off the served schools, into the list's "removing" part: every service stops serving it. */
function stopServing(dataDirectory: string, school: SchoolEntry): void {
  const list = readSchoolList(dataDirectory);
  const served = list.schools.find((candidate) => candidate.sourcedId === school.sourcedId);
  if (!served) return;
  writeSchoolList(dataDirectory, {
    schools: list.schools.filter((candidate) => candidate !== served),
    removing: [...list.removing, served],
  });
}

function forget(dataDirectory: string, sourcedId: string): void {
  const list = readSchoolList(dataDirectory);
  writeSchoolList(dataDirectory, {
    schools: list.schools,
    removing: list.removing.filter((candidate) => candidate.sourcedId !== sourcedId),
  });
}

/**
 * `schools remove SOURCEDID [--yes]`: without --yes, what would go (exit 2). With it, in this order:
 * the school is marked as being removed in the list (running services answer 404 at its paths at
 * once and close it once its calls end), the command waits until no process serves from its store,
 * archives the store to BACKUP_DIR, takes the school off the list and deletes its folder. Cut short,
 * it is run again and goes on where it stopped.
 */
export async function removeSchool(config: Config, sourcedId: string, options: { yes: boolean }): Promise<void> {
  const { dataDirectory } = config;
  const list = readSchoolList(dataDirectory);
  const school = [...list.schools, ...list.removing].find((candidate) => candidate.sourcedId === sourcedId);
  if (!school) throw new UsageError(`no school "${sourcedId.slice(0, 80)}" in this deployment (see schools list)`);
  const folder = schoolFolder(dataDirectory, school.sourcedId);
  const backupDirectory = process.env.BACKUP_DIR;
  if (!backupDirectory || !existsSync(backupDirectory)) {
    throw new UsageError('set BACKUP_DIR to an existing folder: a school removed is archived there first');
  }
  const settings = schoolStoreSettings(config, school.sourcedId);
  const stores = schoolStoresOf(settings);
  const target = resolve(backupDirectory, archiveName(school.sourcedId, new Date(), stores.archiveSuffix));
  const { files, bytes } = folderContents(folder);
  if (!options.yes) {
    process.stdout.write(
      `Would remove school ${describeSchool(school)}: its paths would answer 404 at once, its store, ` +
        `${stores.where(settings)}, would be archived to ${target}, then removed, and its folder ${folder} ` +
        `deleted (${counted(files.length, 'file')}, ` +
        `${counted(bytes, 'byte')}). Run again with --yes.\n`,
    );
    process.exitCode = 2;
    return;
  }
  if (existsSync(target)) throw new UsageError(`${target} exists already: try again in a second`);
  stopServing(dataDirectory, school);
  process.stdout.write(`School ${school.sourcedId} is no longer served; waiting for the services to let go of it.\n`);
  if (await stores.exists(settings)) {
    await waitUntilLetGo(settings);
    const backup = await backupStore(settings, target);
    process.stdout.write(`Archived to ${target} (${backup.kind}, ${counted(backup.bytes, 'byte')}).\n`);
    await stores.remove(settings);
  }
  // Deleted before the list forgets it, so that a removal cut short here still finds the school when run again.
  rmSync(folder, { recursive: true, force: true });
  forget(dataDirectory, school.sourcedId);
  process.stdout.write(
    `Removed school ${describeSchool(school)}: ${stores.where(settings)} removed, ${folder} deleted.\n`,
  );
}
