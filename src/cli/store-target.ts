import type { StoreSettings } from '../store/open-store';
import { UsageError } from './usage-error';

/**
 * The store a command writes into, named on its command line: postgres://user:password@host/db
 * (the database must exist: createdb), or sqlite:FOLDER, a data folder as DATA_DIR names one.
 */
export function storeTarget(url: string): StoreSettings {
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      throw new UsageError('--to must be postgres://user:password@host:port/database or sqlite:FOLDER');
    }
    return { databaseUrl: url, dataDirectory: '.' };
  }
  const folder = /^sqlite:(.+)$/.exec(url)?.[1];
  if (folder === undefined)
    throw new UsageError('--to must be postgres://user:password@host:port/database or sqlite:FOLDER');
  return { databaseUrl: undefined, dataDirectory: folder };
}
