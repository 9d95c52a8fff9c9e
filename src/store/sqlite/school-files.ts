import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SchoolStores } from '../engine-driver';
import { sqliteFileOf, sqliteFilesOf } from './files';

/** Schools' stores on SQLite: a file each, in the school's own folder under DATA_DIR. */
export const sqliteSchoolStores: SchoolStores = {
  settingsOf: (_deployment, _sourcedId, folder) => ({ databaseUrl: undefined, dataDirectory: folder }),
  where: ({ dataDirectory }) => resolve(sqliteFileOf(dataDirectory)),
  archiveSuffix: '.sqlite',
  // Opening the store makes its file.
  make: async () => undefined,
  exists: async ({ dataDirectory }) => existsSync(sqliteFileOf(dataDirectory)),
  remove: async ({ dataDirectory }) => {
    for (const file of sqliteFilesOf(dataDirectory)) rmSync(file, { force: true });
  },
};
