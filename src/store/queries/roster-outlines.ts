import type { ImportConnection } from '../roster/import-connection';

/**
 * A file's outline as the import saves it (migration 023), as JSON, at a version of what it is
 * read from (roster_users_versions for users.csv). Read and written on the connection given (the import's, or a
 * provider's reading).
 */

/** The version of what users.csv's outline is read from (the users, their ledger, their kept fields), as seen now. */
export async function usersVersionOn(connection: ImportConnection): Promise<number> {
  const [row] = await connection.all<{ version: number }>('SELECT version FROM roster_users_versions WHERE id = 1');
  return Number(row?.version ?? 0);
}

/** The outline saved for `file` at `version` (JSON), or undefined when none is saved at it. */
export async function savedOutline(
  connection: ImportConnection,
  file: string,
  version: number,
): Promise<string | undefined> {
  const [row] = await connection.all<{ outline: string }>(
    'SELECT outline FROM roster_outlines WHERE file = ? AND version = ?',
    [file, version],
  );
  return row?.outline;
}

/** Saves `file`'s outline (JSON) at `version`, in place of any saved before. */
export async function saveOutline(
  connection: ImportConnection,
  file: string,
  version: number,
  outline: string,
): Promise<void> {
  await connection.run(
    'INSERT INTO roster_outlines (file, version, outline) VALUES (?, ?, ?) ' +
      'ON CONFLICT (file) DO UPDATE SET version = excluded.version, outline = excluded.outline',
    [file, version, outline],
  );
}
