import { compiledQuery } from '../compiled-query';
import { forgetTombstone } from '../roster/tombstones';
import type { Session } from '../session';
import { ledgerWrite } from './provider-ledger';

/**
 * The marks a OneRoster consumer writes (PUT and DELETE of results): the same rows an import and
 * a sync write, with the same ledger entry (roster_ids, kind `marks`) giving each its sourcedId
 * and its fields the store does not hold kept as the import keeps them (roster_fields).
 */
const RESULTS_FILE = 'results.csv';

// A consumer's PUT runs these lookups several times over; each is built and compiled once (see
// compiled-query.ts), which took most of a PUT's time when kysely built them afresh on each call.
const lineItemQuery = compiledQuery((db, p: { sourcedId: string }) =>
  db
    .selectFrom('roster_ids')
    .innerJoin('assessments', 'assessments.id', 'roster_ids.id')
    .select(['assessments.id as id', 'assessments.class_id as classId'])
    .where('roster_ids.kind', '=', 'assessments')
    .where('roster_ids.sourced_id', '=', p.sourcedId),
);

const studentQuery = compiledQuery((db, p: { sourcedId: string }) =>
  db.selectFrom('roster_ids').select('id').where('kind', '=', 'students').where('sourced_id', '=', p.sourcedId),
);

const enrolmentRecordQuery = compiledQuery((db, p: { studentId: number; classId: number }) =>
  db
    .selectFrom('student_records')
    .select('id')
    .where('student_id', '=', p.studentId)
    .where('class_id', '=', p.classId)
    .orderBy('id', 'desc')
    .limit(1),
);

const markQuery = compiledQuery((db, p: { sourcedId: string }) =>
  db
    .selectFrom('roster_ids')
    .innerJoin('marks', 'marks.id', 'roster_ids.id')
    .select([
      'marks.id as id',
      'marks.assessment_id as assessmentId',
      'marks.student_record_id as recordId',
      'marks.score',
    ])
    .where('roster_ids.kind', '=', 'marks')
    .where('roster_ids.sourced_id', '=', p.sourcedId),
);

const keptResultQuery = compiledQuery((db, p: { sourcedId: string }) =>
  db
    .selectFrom('roster_fields')
    .select('fields')
    .where('file', '=', RESULTS_FILE)
    .where('sourced_id', '=', p.sourcedId),
);

const updateMarkQuery = compiledQuery((db, p: { id: number; assessmentId: number; recordId: number; score: number }) =>
  db
    .updateTable('marks')
    .set({ assessment_id: p.assessmentId, student_record_id: p.recordId, score: p.score })
    .where('id', '=', p.id),
);

const insertMarkQuery = compiledQuery((db, p: { assessmentId: number; recordId: number; score: number }) =>
  db
    .insertInto('marks')
    .values({ assessment_id: p.assessmentId, student_record_id: p.recordId, score: p.score })
    .returning('id'),
);

/** A line item (assessment) by its sourcedId: its id and class. */
export async function lineItemBySourcedId(
  session: Session,
  sourcedId: string,
): Promise<{ id: number; classId: number } | undefined> {
  const [row] = await lineItemQuery(session, { sourcedId });
  return row && { id: Number(row.id), classId: Number(row.classId) };
}

/** A student's enrolment record in a class, by the student's sourcedId; undefined when there is none. */
export async function enrolmentBySourcedId(
  session: Session,
  studentSourcedId: string,
  classId: number,
): Promise<{ studentId: number; recordId: number | undefined } | undefined> {
  const [student] = await studentQuery(session, { sourcedId: studentSourcedId });
  if (!student) return undefined;
  const [record] = await enrolmentRecordQuery(session, { studentId: Number(student.id), classId });
  return { studentId: Number(student.id), recordId: record ? Number(record.id) : undefined };
}

/** The mark a result's sourcedId names, with its line item and enrolment. */
export async function markBySourcedId(
  session: Session,
  sourcedId: string,
): Promise<{ id: number; assessmentId: number; recordId: number; score: number } | undefined> {
  const [row] = await markQuery(session, { sourcedId });
  return (
    row && {
      id: Number(row.id),
      assessmentId: Number(row.assessmentId),
      recordId: Number(row.recordId),
      score: Number(row.score),
    }
  );
}

export interface PutMark {
  readonly sourcedId: string;
  readonly assessmentId: number;
  readonly recordId: number;
  readonly score: number;
  readonly modifiedAt: string;
  /** The result's fields the store does not hold (a comment, a scoreStatus), as JSON; null for none. */
  readonly kept: string | null;
}

/** Writes a mark under its sourcedId, replacing the one it names; its id and whether it is new. */
export async function putMark(transaction: Session, mark: PutMark): Promise<{ id: number; created: boolean }> {
  const existing = await markBySourcedId(transaction, mark.sourcedId);
  // A result that held no mark (exempt, say) and now has a score is the same result, replaced.
  const wasUnscored = !existing && (await keptUnscoredResult(transaction, mark.sourcedId)) !== undefined;
  const values = { assessmentId: mark.assessmentId, recordId: mark.recordId, score: mark.score };
  let id: number;
  if (existing) {
    id = existing.id;
    await updateMarkQuery(transaction, { id, ...values });
  } else {
    const [inserted] = await insertMarkQuery(transaction, values);
    if (!inserted) throw new Error('the new mark was not written');
    id = Number(inserted.id);
  }
  const { sourcedId, modifiedAt, kept } = mark;
  const kind = 'marks';
  await ledgerWrite(transaction, { kind, file: RESULTS_FILE, sourcedId, id, modifiedAt, fields: kept }, !existing);
  return { id, created: existing === undefined && !wasUnscored };
}

/** Deletes the mark a sourcedId names, with its ledger entry and kept fields; false when there is none. */
export async function deleteMark(transaction: Session, sourcedId: string): Promise<boolean> {
  const existing = await markBySourcedId(transaction, sourcedId);
  if (!existing) return false;
  const { db } = transaction;
  await db.deleteFrom('marks').where('id', '=', existing.id).execute();
  await db.deleteFrom('roster_ids').where('kind', '=', 'marks').where('id', '=', existing.id).execute();
  await db.deleteFrom('roster_fields').where('file', '=', RESULTS_FILE).where('sourced_id', '=', sourcedId).execute();
  return true;
}

/**
 * The result a sourcedId names that holds no mark (an `exempt` or `not submitted` one, kept whole
 * as an import of a 1.2 bundle keeps it): the line item and student it names.
 */
export async function unscoredResultBySourcedId(
  session: Session,
  sourcedId: string,
): Promise<{ lineItem: string; student: string } | undefined> {
  if (await markBySourcedId(session, sourcedId)) return undefined;
  return keptUnscoredResult(session, sourcedId);
}

/** The unscored result kept under a sourcedId that names no mark (the caller knows it names none). */
async function keptUnscoredResult(
  session: Session,
  sourcedId: string,
): Promise<{ lineItem: string; student: string } | undefined> {
  const [kept] = await keptResultQuery(session, { sourcedId });
  const fields = kept && (JSON.parse(kept.fields) as Record<string, string>);
  // A row kept whole has its sourcedId among its fields; one kept in part completes a mark's row.
  if (!fields?.sourcedId || !fields.lineItemSourcedId || !fields.studentSourcedId) return undefined;
  return { lineItem: fields.lineItemSourcedId, student: fields.studentSourcedId };
}

/**
 * Writes a result without a mark under its sourcedId: its row kept whole (as the import keeps an
 * unscored 1.2 result), and the mark the sourcedId named, if any, deleted, since the result now
 * has no score; a new one takes away the tombstone its sourcedId had. Whether it is new.
 */
export async function putUnscoredResult(
  transaction: Session,
  result: { readonly sourcedId: string; readonly row: string },
): Promise<{ created: boolean }> {
  const known =
    (await markBySourcedId(transaction, result.sourcedId)) !== undefined ||
    (await unscoredResultBySourcedId(transaction, result.sourcedId)) !== undefined;
  await deleteMark(transaction, result.sourcedId);
  const { db } = transaction;
  await db
    .deleteFrom('roster_fields')
    .where('file', '=', RESULTS_FILE)
    .where('sourced_id', '=', result.sourcedId)
    .execute();
  await db
    .insertInto('roster_fields')
    .values({ file: RESULTS_FILE, sourced_id: result.sourcedId, fields: result.row })
    .execute();
  if (!known) await forgetTombstone(transaction, 'marks', result.sourcedId);
  return { created: !known };
}

/** Deletes a result without a mark (its kept row). */
export async function deleteUnscoredResult(transaction: Session, sourcedId: string): Promise<void> {
  await transaction.db
    .deleteFrom('roster_fields')
    .where('file', '=', RESULTS_FILE)
    .where('sourced_id', '=', sourcedId)
    .execute();
}
