import { existsSync, type FSWatcher, type Stats, statSync, watch } from 'node:fs';
import { log } from '../lib/log';
import { listFile, schoolsFolder } from './school-list';

/**
 * How often the list's file is looked at besides the folder's change events: a folder watch is not
 * kept on every file system (a network mount, a folder made after the start), and this bounds how
 * long a process serves a list that changed. `schools remove` waits longer than this (see
 * cli/schools-remove.ts) before it looks for the processes still holding the school.
 */
export const LIST_POLL_MS = 1_000;

export interface ListWatch {
  /** Looks at the list's file now, as the poll would. */
  look(): void;
  stop(): void;
}

/** What identifies one version of the file: the rename of a new list gives it a new inode. */
function versionOf(stats: Stats | undefined): string {
  return stats ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : 'none';
}

/**
 * Calls `changed` when the list of schools in DATA_DIR changes (written whole by a rename, so that
 * a change is one new file): on the folder's change events, at once, and on a poll of its file's
 * status once a second, which costs one stat call and nothing on a request's path.
 */
export function watchList(dataDirectory: string, changed: () => void): ListWatch {
  const file = listFile(dataDirectory);
  const folder = schoolsFolder(dataDirectory);
  const currentVersion = () => {
    try {
      return versionOf(statSync(file, { throwIfNoEntry: false }));
    } catch {
      // Unreadable for now (its folder's permissions changed): the list served stays as it was.
      return seen;
    }
  };
  let seen = 'none';
  seen = currentVersion();
  let folderWatch: FSWatcher | undefined;
  const watchFolder = () => {
    if (folderWatch || !existsSync(folder)) return;
    try {
      folderWatch = watch(folder, { persistent: false }, () => look());
      folderWatch.on('error', () => {
        folderWatch?.close();
        folderWatch = undefined;
      });
    } catch (error) {
      log.debug('the schools folder is looked at once a second only', { error: (error as Error).message });
    }
  };
  const look = () => {
    watchFolder();
    const version = currentVersion();
    if (version === seen) return;
    seen = version;
    changed();
  };
  watchFolder();
  const poll = setInterval(look, LIST_POLL_MS);
  poll.unref();
  return {
    look,
    stop: () => {
      clearInterval(poll);
      folderWatch?.close();
    },
  };
}
