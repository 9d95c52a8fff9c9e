import { userInfo } from 'node:os';
import { escapeControlCharacters } from '../lib/control-characters';
import { findBackups } from '../store/backup/backup-files';
import type { EngineSettings } from '../store/engine-driver';
import { eraseFromStoreFiles } from '../store/privacy/erase-from-files';
import { type ErasurePlan, planErasure } from '../store/privacy/subject-erasure';
import { liveStoreFiles } from '../store/store-presence';
import { withConfiguredStore } from './configured-store';
import { unknownSubject } from './subject-options';
import { UsageError } from './usage-error';

export interface EraseOptions {
  readonly student: number;
  readonly reason: string;
  readonly dryRun: boolean;
}

/** The reason is kept in the store for good: a sentence, not a file. */
export const LONGEST_REASON = 500;

function checkedReason(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed === '' || trimmed.length > LONGEST_REASON || escapeControlCharacters(trimmed) !== trimmed)
    throw new UsageError(`--reason must be one line of 1 to ${LONGEST_REASON} characters`);
  return trimmed;
}

function planLines(plan: ErasurePlan): string[] {
  const guardians = plan.guardians.map((guardian) => guardian.id).join(', ') || 'none';
  const rows = Object.entries(plan.rows)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `  ${table}: ${count}`);
  return [`guardians of no other child, erased with the student: ${guardians}`, 'rows:', ...rows];
}

/** Files the erasure cannot reach: backups made before it, and the recording of calls. */
function outsideLines(settings: EngineSettings): string[] {
  const folders = [settings.dataDirectory, ...(process.env.BACKUP_DIR ? [process.env.BACKUP_DIR] : [])];
  const backups = findBackups(folders, liveStoreFiles(settings)).map(
    (backup) => `  ${backup.path} (${backup.engine}, ${backup.writtenAt})`,
  );
  const lines = backups.length
    ? ['backups made before this erasure still hold the student (apply your retention to them):', ...backups]
    : [`no backups found in ${folders.join(' or ')}`];
  if (process.env.RECORD_FILE) lines.push(`the recording ${process.env.RECORD_FILE} may hold their calls: delete it`);
  return lines;
}

/**
 * school-service subject erase --student ID --reason TEXT [--dry-run]: removes the student's
 * personal data from every table (as the declarations say) and from the store's files, with each
 * guardian who is guardian of no other child; the audit trail keeps the id and records the erasure.
 */
export async function subjectEraseCommand(options: EraseOptions): Promise<void> {
  const reason = checkedReason(options.reason);
  await withConfiguredStore(
    async (store, config) => {
      const plan = await planErasure(store, options.student, config.notifications.defaultCountryCode);
      if (!plan) throw unknownSubject('student', options.student);
      const out = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
      if (options.dryRun) {
        out([`Would erase student ${options.student} (dry run: nothing written).`, ...planLines(plan)]);
        out(outsideLines(config));
        return;
      }
      const erasedBy = userInfo().username || 'operator';
      const files = await eraseFromStoreFiles(store, plan, { at: new Date().toISOString(), erasedBy, reason });
      out([`Erased student ${options.student}.`, ...planLines(plan), `store files: ${files.done.join(', ')}`]);
      if (files.refused.length)
        out(['refused by the store (see docs/privacy.md):', ...files.refused.map((s) => `  ${s}`)]);
      out(outsideLines(config));
    },
    { mustExist: true },
  );
}
