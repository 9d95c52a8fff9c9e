import { sql } from 'kysely';
import type { Session } from '../session';
import { ledgerWrite } from './provider-ledger';

/**
 * The line items a OneRoster consumer writes (PUT and DELETE of lineItems): the school's
 * assessments, the same rows an import writes for lineItems.csv, with the same ledger entry
 * (roster_ids, kind `assessments`) and the row kept whole as the import keeps it (roster_fields),
 * so that the provider and `export` give back what the consumer wrote.
 */
const LINE_ITEMS_FILE = 'lineItems.csv';
const RESULTS_FILE = 'results.csv';

async function idOf({ db }: Session, kind: string, sourcedId: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('roster_ids')
    .select('id')
    .where('kind', '=', kind)
    .where('sourced_id', '=', sourcedId)
    .executeTakeFirst();
  return row && Number(row.id);
}

/**
 * A class by sourcedId: a scheduled class's section (class and subject), `homeroom` for a
 * homeroom (which holds no assessments), undefined for none.
 */
export async function classSectionBySourcedId(
  session: Session,
  sourcedId: string,
): Promise<{ classId: number; subjectId: number } | 'homeroom' | undefined> {
  const sectionId = await idOf(session, 'class_subjects', sourcedId);
  if (sectionId === undefined)
    return (await idOf(session, 'classes', sourcedId)) === undefined ? undefined : 'homeroom';
  const section = await session.db
    .selectFrom('class_subjects')
    .select(['class_id', 'subject_id'])
    .where('id', '=', sectionId)
    .executeTakeFirst();
  return section && { classId: Number(section.class_id), subjectId: Number(section.subject_id) };
}

export function categoryBySourcedId(session: Session, sourcedId: string): Promise<number | undefined> {
  return idOf(session, 'assessment_categories', sourcedId);
}

/**
 * The term a session's sourcedId names: a term's own, or, for a grading period the import kept
 * (it holds none of its own), the term it sits in, as the import resolves it.
 */
export async function termBySourcedId(session: Session, sourcedId: string): Promise<number | undefined> {
  const term = await idOf(session, 'terms', sourcedId);
  if (term !== undefined) return term;
  const kept = await session.db
    .selectFrom('roster_fields')
    .select('fields')
    .where('file', '=', 'academicSessions.csv')
    .where('sourced_id', '=', sourcedId)
    .executeTakeFirst();
  const parent = kept && (JSON.parse(kept.fields) as Record<string, string>).parentSourcedId;
  return parent ? idOf(session, 'terms', parent) : undefined;
}

/** A line item by sourcedId: its id, class section and how many results (marks) it has. */
export async function assessmentBySourcedId(
  session: Session,
  sourcedId: string,
): Promise<{ id: number; classId: number; subjectId: number; marks: number } | undefined> {
  const id = await idOf(session, 'assessments', sourcedId);
  if (id === undefined) return undefined;
  const row = await session.db
    .selectFrom('assessments')
    .select(['class_id', 'subject_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const counted = await session.db
    .selectFrom('marks')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('assessment_id', '=', id)
    .executeTakeFirstOrThrow();
  return { id, classId: Number(row.class_id), subjectId: Number(row.subject_id), marks: Number(counted.count) };
}

export interface PutAssessment {
  readonly sourcedId: string;
  readonly classId: number;
  readonly subjectId: number;
  readonly termId: number;
  readonly categoryId: number | null;
  readonly nameAr: string;
  readonly nameEn: string;
  readonly heldOn: string;
  readonly maxScore: number;
  readonly modifiedAt: string;
  /** The lineItems.csv row as the import keeps it (JSON, with its sourcedId). */
  readonly kept: string;
}

/** Writes an assessment under its sourcedId, replacing the one it names; its id and whether it is new. */
export async function putAssessment(
  transaction: Session,
  item: PutAssessment,
): Promise<{ id: number; created: boolean }> {
  const { db } = transaction;
  const values = {
    class_id: item.classId,
    subject_id: item.subjectId,
    term_id: item.termId,
    category_id: item.categoryId,
    name_ar: item.nameAr,
    name_en: item.nameEn,
    held_on: item.heldOn,
    max_score: item.maxScore,
  };
  let id = await idOf(transaction, 'assessments', item.sourcedId);
  const created = id === undefined;
  if (id !== undefined) {
    await db.updateTable('assessments').set(values).where('id', '=', id).execute();
  } else {
    const inserted = await db.insertInto('assessments').values(values).returning('id').executeTakeFirstOrThrow();
    id = Number(inserted.id);
  }
  const { sourcedId, modifiedAt, kept } = item;
  const kind = 'assessments';
  await ledgerWrite(transaction, { kind, file: LINE_ITEMS_FILE, sourcedId, id, modifiedAt, fields: kept }, created);
  return { id, created };
}

/**
 * Deletes the kept rows of the results that name a line item and hold no mark (exempt, not
 * submitted: an import and a consumer's PUT keep those whole, naming the line item by sourcedId,
 * with no ledger entry); their sourcedIds. Left behind, they would come back with the line item.
 */
async function deleteUnscoredResultsOf(transaction: Session, lineItemSourcedId: string): Promise<string[]> {
  const { db, engine } = transaction;
  const [before, after] = engine.jsonText('roster_fields.fields').split('?');
  const lineItemField = sql<string>`${sql.raw(before)}${engine.jsonKeyParameter('lineItemSourcedId')}${sql.raw(after)}`;
  const rows = await db
    .selectFrom('roster_fields')
    .select('sourced_id')
    .where('file', '=', RESULTS_FILE)
    .where(lineItemField, '=', lineItemSourcedId)
    // A mark's row is kept in part and names no line item; this keeps one out whatever it holds.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('roster_ids')
            .select('roster_ids.id')
            .where('roster_ids.kind', '=', 'marks')
            .whereRef('roster_ids.sourced_id', '=', 'roster_fields.sourced_id'),
        ),
      ),
    )
    .execute();
  const sourcedIds = rows.map((row) => row.sourced_id);
  // Batches within every engine's limit of bound parameters.
  for (let start = 0; start < sourcedIds.length; start += 500) {
    const names = sourcedIds.slice(start, start + 500);
    await db.deleteFrom('roster_fields').where('file', '=', RESULTS_FILE).where('sourced_id', 'in', names).execute();
  }
  return sourcedIds;
}

/**
 * Deletes an assessment with its results: its marks (their ledger entries and kept fields) and
 * the kept rows of those without a mark, and its own ledger entry and kept row; returns the
 * students whose marks went and the sourcedIds of all its results, marks or not.
 */
export async function deleteAssessment(
  transaction: Session,
  id: number,
  sourcedId: string,
): Promise<{ students: number[]; results: string[] }> {
  const { db } = transaction;
  const marks = await db
    .selectFrom('marks')
    .innerJoin('student_records', 'student_records.id', 'marks.student_record_id')
    .leftJoin('roster_ids', (join) => join.onRef('roster_ids.id', '=', 'marks.id').on('roster_ids.kind', '=', 'marks'))
    .select(['marks.id as id', 'student_records.student_id as studentId', 'roster_ids.sourced_id as sourcedId'])
    .where('marks.assessment_id', '=', id)
    .execute();
  const markIds = marks.map((mark) => Number(mark.id));
  const markSourcedIds = marks.flatMap((mark) => (mark.sourcedId ? [mark.sourcedId] : []));
  // Batches within every engine's limit of bound parameters.
  for (let start = 0; start < markIds.length; start += 500) {
    const ids = markIds.slice(start, start + 500);
    await db.deleteFrom('roster_ids').where('kind', '=', 'marks').where('id', 'in', ids).execute();
  }
  for (let start = 0; start < markSourcedIds.length; start += 500) {
    const names = markSourcedIds.slice(start, start + 500);
    await db.deleteFrom('roster_fields').where('file', '=', RESULTS_FILE).where('sourced_id', 'in', names).execute();
  }
  const unscored = await deleteUnscoredResultsOf(transaction, sourcedId);
  await db.deleteFrom('marks').where('assessment_id', '=', id).execute();
  await db.deleteFrom('assessments').where('id', '=', id).execute();
  await db.deleteFrom('roster_ids').where('kind', '=', 'assessments').where('id', '=', id).execute();
  await db
    .deleteFrom('roster_fields')
    .where('file', '=', LINE_ITEMS_FILE)
    .where('sourced_id', '=', sourcedId)
    .execute();
  const students = [...new Set(marks.map((mark) => Number(mark.studentId)))];
  return { students, results: [...markSourcedIds, ...unscored] };
}
