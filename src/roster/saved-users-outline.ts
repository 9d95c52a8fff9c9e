import type { ImportConnection } from '../store/roster/import-connection';
import { usersVersionOn, saveOutline, savedOutline } from '../store/queries/roster-outlines';
import type { SchoolTableName } from '../store/roster/school-tables';
import {
  readUsersExceptions,
  readUsersExtraColumns,
  readUsersOutline,
  USER_ROLE_TABLES,
  USERS_FILE,
  type UsersExceptions,
  type UsersOutline,
} from './user-outline';

const texts = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((each) => typeof each === 'string');

const userTable = (value: unknown): value is SchoolTableName => USER_ROLE_TABLES.some(({ table }) => table === value);

/** The exceptions read back from the store, or undefined when they are not as saved (then worked out again). */
function exceptionsIn(json: string | undefined): UsersExceptions | undefined {
  if (json === undefined) return undefined;
  try {
    const { roles, alone, extra } = JSON.parse(json) as Record<string, unknown>;
    const role = (entry: unknown) =>
      Array.isArray(entry) && userTable(entry[0]) && Number.isInteger(entry[1]) && typeof entry[2] === 'string';
    if (!Array.isArray(roles) || !roles.every(role) || !texts(alone) || !texts(extra)) return undefined;
    return { whole: false, roles: roles as UsersExceptions['roles'], alone, extra };
  } catch {
    return undefined;
  }
}

/**
 * users.csv's outline: from what the import saved at the users' current version when it saved it
 * (the counts, the rows kept alone and the school read now, a few point lookups), else worked out
 * now (a pass over every kept user: half a second for 100,000).
 */
export async function usersOutline(connection: ImportConnection): Promise<UsersOutline | undefined> {
  const version = await usersVersionOn(connection);
  return readUsersOutline(connection, exceptionsIn(await savedOutline(connection, USERS_FILE, version)));
}

/**
 * Works users.csv's outline out and saves it at the users' version: called by an import once its
 * change is committed, so that a provider's first page after it reads only what the page names.
 * Saved only if no change came meanwhile, and not for a file better read whole.
 */
export async function saveUsersOutline(connection: ImportConnection): Promise<void> {
  const version = await usersVersionOn(connection);
  const exceptions = await readUsersExceptions(connection);
  if (exceptions.whole) return;
  const extra = await readUsersExtraColumns(connection);
  if ((await usersVersionOn(connection)) !== version) return;
  const { roles, alone } = exceptions;
  await saveOutline(connection, USERS_FILE, version, JSON.stringify({ roles, alone, extra }));
}
