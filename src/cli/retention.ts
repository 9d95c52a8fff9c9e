import { eraseLeaversDue, leaversDue, noteLeavers } from '../store/privacy/retention';
import { inTransaction, rehearsalSession } from '../store/session';
import { withConfiguredStore } from './configured-store';
import { UsageError } from './usage-error';

/**
 * school-service retention [--dry-run]: the students who left RETENTION_AFTER_LEAVING_DAYS days ago
 * or more, by id and the day they left; without --dry-run they are erased now, as the service does
 * once a day.
 */
export async function retentionCommand(options: { dryRun: boolean }): Promise<void> {
  await withConfiguredStore(
    async (store, config) => {
      const days = config.retentionAfterLeavingDays;
      if (days === undefined) throw new UsageError('RETENTION_AFTER_LEAVING_DAYS is not set: no student is erased');
      const now = new Date();
      const today = now.toISOString().slice(0, 10);
      const settings = { afterLeavingDays: days, defaultCountryCode: config.notifications.defaultCountryCode };
      const leavers = options.dryRun
        ? await inTransaction(rehearsalSession(store), async (session) => {
            await noteLeavers(session, today);
            return leaversDue(session, today, days);
          })
        : await eraseLeaversDue(store, settings, now);
      const verb = options.dryRun ? 'Would erase' : 'Erased';
      const lines = leavers.map((leaver) => `  student ${leaver.studentId}, left on ${leaver.leftOn}`);
      process.stdout.write(`${verb} ${leavers.length} students who left ${days} or more days ago.\n`);
      if (lines.length) process.stdout.write(`${lines.join('\n')}\n`);
    },
    { mustExist: true },
  );
}
