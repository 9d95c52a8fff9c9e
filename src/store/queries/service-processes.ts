import type { ServiceProcessTable } from '../schema';
import type { Session } from '../session';

/** The rows of the processes serving from this store (see migration 006). */

/** Records that the process is serving, now: its row is added, or refreshed. */
export async function recordProcessSeen({ db }: Session, row: ServiceProcessTable): Promise<void> {
  await db
    .insertInto('service_processes')
    .values(row)
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ seen_at: row.seen_at }))
    .execute();
}

/** Deletes the row of a process that stops. */
export async function forgetProcess({ db }: Session, id: string): Promise<void> {
  await db.deleteFrom('service_processes').where('id', '=', id).execute();
}

/** Deletes the rows of processes not seen since `before`: they died without saying so. */
export async function forgetProcessesNotSeenSince({ db }: Session, before: string): Promise<void> {
  await db.deleteFrom('service_processes').where('seen_at', '<', before).execute();
}

/** The processes seen since `since`, by node and start. */
export function processesSeenSince({ db }: Session, since: string): Promise<ServiceProcessTable[]> {
  return db
    .selectFrom('service_processes')
    .selectAll()
    .where('seen_at', '>=', since)
    .orderBy('node')
    .orderBy('started_at')
    .execute();
}
