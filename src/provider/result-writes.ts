import type { Identity } from '../access/caller-registry';
import { Visibility } from '../access/visibility';
import type { AuditTrail } from '../audit/audit-trail';
import type { PayloadSealer } from '../lib/payload-sealer';
import { queueMarkNotificationsWithin } from '../notifications/mark-notifications';
import type { Store } from '../store/open-store';
import {
  deleteMark,
  enrolmentBySourcedId,
  lineItemBySourcedId,
  markBySourcedId,
  putMark,
  putUnscoredResult,
  deleteUnscoredResult,
  unscoredResultBySourcedId,
} from '../store/queries/provider-marks';
import { recordTombstones } from '../store/roster/tombstones';
import { inTransaction } from '../store/session';
import { keptFieldsOf, parseResult, unscoredRowOf } from './result-body';
import { auditWrite } from './write-audit';

/**
 * A OneRoster consumer's writes of results: a result IS the school's mark, the same row
 * GetStudentsMarks2, report cards and `export` read. A new or changed mark notifies the student's
 * guardians as a synced one does (the outbox, its per-device limits and the guardians' devices),
 * and every write is audited with its caller and the student and class it wrote. A write naming a
 * line item or student the caller's scope does not reach answers as an unknown one, writing
 * nothing; a guardian or a student may read, never write.
 */
export interface WriteParts {
  readonly store: Store;
  readonly audit: AuditTrail;
  readonly clock: () => Date;
  readonly notify: { readonly sealer: PayloadSealer; readonly perDevicePerMinute: number };
  /** Wakes the delivery worker once messages are queued. */
  readonly outboxChanged: () => void;
  /** Tells the reads that the school changed. */
  readonly changed: () => void;
}

export type WriteOutcome =
  | { readonly kind: 'written'; readonly created: boolean }
  | { readonly kind: 'deleted' }
  | { readonly kind: 'invalid'; readonly problem: string }
  | { readonly kind: 'unknown'; readonly problem: string }
  | { readonly kind: 'forbidden'; readonly problem: string };

/** The scopes that may write: the school's, and a teacher's (in the classes they teach). */
export const WRITERS = new Set(['school', 'teacher']);
/** The sync's own bound for a caller, which a consumer's marks share: each device keeps its own limit. */
const CALLER_LIMIT = { limit: 1_000_000, windowMs: 3_600_000 };

export async function putResult(
  parts: WriteParts,
  who: Identity,
  address: string,
  sourcedId: string,
  body: unknown,
): Promise<WriteOutcome> {
  if (!WRITERS.has(who.scope.kind)) return { kind: 'forbidden', problem: "The caller's scope may not write marks." };
  const parsed = parseResult(body, sourcedId);
  if (!parsed.ok) return { kind: 'invalid', problem: parsed.problem };
  const { result } = parsed;
  const { store } = parts;
  const lineItem = await lineItemBySourcedId(store, result.lineItem);
  const enrolment = lineItem && (await enrolmentBySourcedId(store, result.student, lineItem.classId));
  const visibility = new Visibility(store, who.scope);
  // The school's scope sees every enrolment: the one just found needs no second read to be seen.
  const seen =
    enrolment?.recordId !== undefined &&
    (visibility.seesEverything || (await visibility.enrolment(enrolment.recordId)) !== undefined);
  if (!lineItem) return { kind: 'unknown', problem: `lineItem: there is no line item ${result.lineItem}.` };
  if (!enrolment || (enrolment.recordId !== undefined && !seen)) {
    return { kind: 'unknown', problem: `student: there is no student ${result.student}.` };
  }
  if (enrolment.recordId === undefined) {
    return { kind: 'invalid', problem: `student: ${result.student} is not enrolled in the line item's class.` };
  }
  const now = parts.clock();
  const audited = { students: [enrolment.studentId], classes: [lineItem.classId] };
  if (result.score === undefined) {
    const row = unscoredRowOf(result, sourcedId, now.toISOString());
    const kept = await inTransaction(store, (transaction) => putUnscoredResult(transaction, { sourcedId, row }));
    parts.changed();
    auditWrite(parts, who, address, 'PUT results', audited);
    return { kind: 'written', created: kept.created };
  }
  const recordId = enrolment.recordId;
  const score = result.score;
  // The mark and its guardians' notifications commit together: one transaction on a PUT's path.
  const { written, queued } = await inTransaction(store, async (transaction) => {
    const mark = await putMark(transaction, {
      sourcedId,
      assessmentId: lineItem.id,
      recordId,
      score,
      modifiedAt: now.toISOString(),
      kept: keptFieldsOf(result),
    });
    const notified = await queueMarkNotificationsWithin(
      transaction,
      { assessmentId: lineItem.id, classId: lineItem.classId },
      { now, sealer: parts.notify.sealer },
      {
        caller: { key: `oneroster:${who.name}`, ...CALLER_LIMIT },
        perDevicePerMinute: parts.notify.perDevicePerMinute,
      },
      new Set([mark.id]),
    );
    return { written: mark, queued: notified };
  });
  parts.changed();
  auditWrite(parts, who, address, 'PUT results', audited);
  if (typeof queued === 'number' && queued > 0) parts.outboxChanged();
  return { kind: 'written', created: written.created };
}

/** The enrolment record a result's sourcedId is of, and whether it is a result without a mark. */
async function resultRecord(
  store: Store,
  sourcedId: string,
): Promise<{ recordId: number; unscored: boolean } | undefined> {
  const mark = await markBySourcedId(store, sourcedId);
  if (mark) return { recordId: mark.recordId, unscored: false };
  const unscored = await unscoredResultBySourcedId(store, sourcedId);
  const lineItem = unscored && (await lineItemBySourcedId(store, unscored.lineItem));
  const enrolment = unscored && lineItem && (await enrolmentBySourcedId(store, unscored.student, lineItem.classId));
  return enrolment?.recordId === undefined ? undefined : { recordId: enrolment.recordId, unscored: true };
}

export async function deleteResult(
  parts: WriteParts,
  who: Identity,
  address: string,
  sourcedId: string,
): Promise<WriteOutcome> {
  if (!WRITERS.has(who.scope.kind)) return { kind: 'forbidden', problem: "The caller's scope may not write marks." };
  const found = await resultRecord(parts.store, sourcedId);
  const enrolment = found && (await new Visibility(parts.store, who.scope).enrolment(found.recordId));
  if (!found || !enrolment) return { kind: 'unknown', problem: `There is no result ${sourcedId}.` };
  const at = parts.clock().toISOString();
  await inTransaction(parts.store, async (transaction) => {
    if (found.unscored) await deleteUnscoredResult(transaction, sourcedId);
    else await deleteMark(transaction, sourcedId);
    // Read as tobedeleted by a consumer reading changes, as a result an import deleted is.
    await recordTombstones(transaction, 'marks', [sourcedId], at);
  });
  parts.changed();
  auditWrite(parts, who, address, 'DELETE results', { students: [enrolment.studentId], classes: [enrolment.classId] });
  return { kind: 'deleted' };
}
