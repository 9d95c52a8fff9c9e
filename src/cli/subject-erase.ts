import { userInfo } from 'node:os';
import { escapeControlCharacters } from '../lib/control-characters';
import { findBackups } from '../store/backup/backup-files';
import type { EngineSettings } from '../store/engine-driver';
import { eraseFromStoreFiles } from '../store/privacy/erase-from-files';
import { type ErasedKind, type ErasurePlan, planErasure } from '../store/privacy/subject-erasure';
import { liveStoreFiles } from '../store/store-presence';
import { withConfiguredStore } from './configured-store';
import { subjectOf, unknownSubject } from './subject-options';
import { UsageError } from './usage-error';

export interface EraseOptions {
  readonly student?: number;
  readonly teacher?: number;
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

function countLines(counts: Readonly<Record<string, number>>): string[] {
  return Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([table, count]) => `  ${table}: ${count}`);
}

function planLines(plan: ErasurePlan): string[] {
  const guardians = plan.guardians.map((guardian) => guardian.id).join(', ') || 'none';
  const titled = (title: string, lines: string[]) => (lines.length ? [title, ...lines] : []);
  return [
    ...(plan.subject.kind === 'student' ? [`guardians of no other child, erased with the student: ${guardians}`] : []),
    'rows:',
    ...countLines(plan.rows),
    ...titled("kept with the person's name and phone number emptied:", countLines(plan.emptied)),
    ...titled('kept without the person, as the school must (see docs/privacy.md):', countLines(plan.kept)),
  ];
}

/** Files the erasure cannot reach: backups made before it, and the recording of calls. */
function outsideLines(settings: EngineSettings, kind: ErasedKind): string[] {
  const folders = [settings.dataDirectory, ...(process.env.BACKUP_DIR ? [process.env.BACKUP_DIR] : [])];
  const backups = findBackups(folders, liveStoreFiles(settings)).map(
    (backup) => `  ${backup.path} (${backup.engine}, ${backup.writtenAt})`,
  );
  const lines = backups.length
    ? [`backups made before this erasure still hold the ${kind} (apply your retention to them):`, ...backups]
    : [`no backups found in ${folders.join(' or ')}`];
  if (process.env.RECORD_FILE) lines.push(`the recording ${process.env.RECORD_FILE} may hold their calls: delete it`);
  return lines;
}

/** The one person erased: --student or --teacher (commander knows no --guardian here). */
function erasedOf(options: EraseOptions): { kind: ErasedKind; id: number } {
  const { kind, id } = subjectOf(options);
  if (kind === 'guardian') throw new UsageError('name one person: --student ID or --teacher ID');
  return { kind, id };
}

/**
 * school-service subject erase --student ID | --teacher ID --reason TEXT [--dry-run]: removes the
 * person's personal data from every table (as the declarations say) and from the store's files,
 * with a student's guardians who are guardian of no other child; what the school must keep of a
 * teacher (the classes they taught, the notes they wrote) stays by the id, without the person. The
 * audit trail keeps the id and records the erasure.
 */
export async function subjectEraseCommand(options: EraseOptions): Promise<void> {
  const { kind, id } = erasedOf(options);
  const reason = checkedReason(options.reason);
  await withConfiguredStore(
    async (store, config) => {
      const plan = await planErasure(store, kind, id, config.notifications.defaultCountryCode);
      if (!plan) throw unknownSubject(kind, id);
      const out = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);
      if (options.dryRun) {
        out([`Would erase ${kind} ${id} (dry run: nothing written).`, ...planLines(plan)]);
        out(outsideLines(config, kind));
        return;
      }
      const erasedBy = userInfo().username || 'operator';
      const files = await eraseFromStoreFiles(store, plan, { at: new Date().toISOString(), erasedBy, reason });
      out([`Erased ${kind} ${id}.`, ...planLines(plan), `store files: ${files.done.join(', ')}`]);
      if (files.refused.length)
        out(['refused by the store (see docs/privacy.md):', ...files.refused.map((s) => `  ${s}`)]);
      out(outsideLines(config, kind));
    },
    { mustExist: true },
  );
}
