import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../lib/private-files';
import { type SchoolEntry, SchoolEntryError, schoolEntry } from './school-entry';

/** The most schools one deployment lists: a bound on the file, on the stores opened at start and on start's time. */
export const MAX_SCHOOLS = 1_000;

/** DATA_DIR/schools: the list of the deployment's schools and a folder per school, its store in it. */
export function schoolsFolder(dataDirectory: string): string {
  return join(dataDirectory, 'schools');
}

/** The list file, which a running service watches: see list-watch.ts. */
export function listFile(dataDirectory: string): string {
  return join(schoolsFolder(dataDirectory), 'schools.json');
}

/** The folder of a school's own store (and its key file and audit journal, as DATA_DIR holds them for one school). */
export function schoolFolder(dataDirectory: string, sourcedId: string): string {
  return join(schoolsFolder(dataDirectory), sourcedId);
}

/**
 * The deployment's list: the schools it serves, and those being removed (no longer served; their
 * folders still to be archived and deleted by `schools remove`, which a removal cut short finishes
 * when run again).
 */
export interface SchoolList {
  readonly schools: SchoolEntry[];
  readonly removing: SchoolEntry[];
}

/**
 * The deployment's schools, as `schools add` wrote them; none when there is no list (a deployment
 * of one school, as before). A list that does not read back whole is refused with the reason,
 * rather than serving some of its schools.
 */
export function readSchools(dataDirectory: string): SchoolEntry[] {
  return readSchoolList(dataDirectory).schools;
}

export function readSchoolList(dataDirectory: string): SchoolList {
  const file = listFile(dataDirectory);
  if (!existsSync(file)) return { schools: [], removing: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SchoolEntryError(`${file} is not JSON: ${(error as Error).message}`);
  }
  const { schools, removing = [] } = parsed as { schools?: unknown; removing?: unknown };
  if (!Array.isArray(schools) || !Array.isArray(removing) || schools.length + removing.length > MAX_SCHOOLS) {
    throw new SchoolEntryError(`${file} must hold {"schools": [...]} with at most ${MAX_SCHOOLS} schools`);
  }
  const entries = (list: unknown[]) =>
    list.map((school: unknown) => schoolEntry(typeof school === 'object' && school !== null ? school : {}));
  const list = { schools: entries(schools), removing: entries(removing) };
  const clash = firstClash(list.schools) ?? firstClash([...list.schools, ...list.removing].map(folderOnly));
  if (clash) throw new SchoolEntryError(`${file}: ${clash}`);
  return list;
}

/** An entry reduced to what a school being removed still holds: its folder, named by its sourcedId. */
function folderOnly(entry: SchoolEntry): SchoolEntry {
  return { sourcedId: entry.sourcedId, path: `/${entry.sourcedId}` };
}

/** Why a list cannot be served: two schools with one sourcedId, path or host; undefined when none. */
export function firstClash(entries: readonly SchoolEntry[]): string | undefined {
  const seen = new Set<string>();
  for (const entry of entries) {
    const keys = [`sourcedId ${entry.sourcedId}`, `path ${entry.path}`];
    if (entry.host) keys.push(`host ${entry.host}`);
    for (const key of keys) {
      if (seen.has(key)) return `two schools have the ${key}`;
      seen.add(key);
    }
  }
  return undefined;
}

/** Writes the schools served, keeping the schools being removed as the list holds them. */
export function writeSchools(dataDirectory: string, entries: readonly SchoolEntry[]): void {
  writeSchoolList(dataDirectory, { schools: [...entries], removing: readSchoolList(dataDirectory).removing });
}

/** Writes the list whole: into a file beside it, renamed over it, so that a reader never sees half of one. */
export function writeSchoolList(dataDirectory: string, list: SchoolList): void {
  mkdirSync(schoolsFolder(dataDirectory), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const file = listFile(dataDirectory);
  const partial = `${file}.partial`;
  const written = list.removing.length === 0 ? { schools: list.schools } : list;
  writeFileSync(partial, `${JSON.stringify(written, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(partial, file);
}
