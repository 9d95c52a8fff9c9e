import type { EngineSettings } from '../engine-driver';
import { ENGINE_DRIVERS, engineDriverOf } from '../engines';
import { backupEngineOf } from './backup-files';

/** A file that is no backup of this service's, or one that cannot restore into the configured store. */
export class BackupRefused extends Error {}

/**
 * How a backup comes back into the store the settings name: read as a store of its own (from a
 * copy made in a folder given) and copied table by table, into either engine; or restored by its
 * engine in place, into a store of that engine only.
 */
export type BackupRestore =
  | { readonly readAs: (file: string, folder: string) => EngineSettings }
  | { readonly inPlace: () => Promise<void> };

/** How the backup `file` restores into the store the settings name; refused with the reason. */
export function backupRestoreOf(file: string, settings: EngineSettings): BackupRestore {
  const written = backupEngineOf(file);
  if (!written) {
    const kinds = ENGINE_DRIVERS.map((driver) => `a backup of ${driver.engine.title} (${driver.backups.kind})`);
    throw new BackupRefused(`${file} is neither ${kinds.join(' nor ')}`);
  }
  const { readAs, restoreInPlace } = written.backups;
  if (readAs) return { readAs };
  if (engineDriverOf(settings) !== written || !restoreInPlace) {
    throw new BackupRefused(
      `a ${written.backups.kind} backup restores into ${written.engine.title} only: ` +
        `set ${written.setting(settings)} to an empty database`,
    );
  }
  return { inPlace: () => restoreInPlace(settings, file) };
}
