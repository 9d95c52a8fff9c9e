import type { Identity } from '../access/caller-registry';
import { Visibility } from '../access/visibility';
import {
  assessmentBySourcedId,
  categoryBySourcedId,
  classSectionBySourcedId,
  deleteAssessment,
  putAssessment,
  termBySourcedId,
} from '../store/queries/provider-line-items';
import { teacherSubjectIds } from '../store/queries/visibility';
import { recordTombstones } from '../store/roster/tombstones';
import { inTransaction } from '../store/session';
import { parseLineItem } from './line-item-body';
import { WRITERS, type WriteOutcome, type WriteParts } from './result-writes';
import { auditWrite } from './write-audit';

/**
 * A OneRoster consumer's writes of line items: a line item IS the school's assessment, the row an
 * import writes for lineItems.csv (a scheduled class's subject and class, the term of its grading
 * period, held on its dueDate, scored out of resultValueMax). A teacher's caller writes those of
 * the classes and subjects they teach; one out of its reach answers as unknown, writing nothing.
 * DELETE removes the line item with its results, marks and those without a score alike (the
 * binding's results cannot outlive their line item), each student whose mark went named in the
 * audit trail, and leaves a tombstone for each.
 */
const FORBIDDEN: WriteOutcome = { kind: 'forbidden', problem: "The caller's scope may not write line items." };

/** Whether the caller's scope reaches a class section: the school's all, a teacher's those they teach. */
async function reaches(parts: WriteParts, who: Identity, section: { classId: number; subjectId: number }) {
  const visibility = new Visibility(parts.store, who.scope);
  if (!(await visibility.class(section.classId))) return false;
  if (who.scope.kind !== 'teacher') return true;
  return (await teacherSubjectIds(parts.store, who.scope.id, section.classId)).includes(section.subjectId);
}

export async function putLineItem(
  parts: WriteParts,
  who: Identity,
  address: string,
  sourcedId: string,
  body: unknown,
): Promise<WriteOutcome> {
  if (!WRITERS.has(who.scope.kind)) return FORBIDDEN;
  const parsed = parseLineItem(body, sourcedId);
  if (!parsed.ok) return { kind: 'invalid', problem: parsed.problem };
  const { lineItem } = parsed;
  const { store } = parts;
  const section = await classSectionBySourcedId(store, lineItem.classSourcedId);
  const existing = await assessmentBySourcedId(store, sourcedId);
  if (section === 'homeroom') {
    return { kind: 'invalid', problem: 'class: a line item belongs to a scheduled class (a subject), not a homeroom.' };
  }
  if (!section || !(await reaches(parts, who, section))) {
    return { kind: 'unknown', problem: `class: there is no class ${lineItem.classSourcedId}.` };
  }
  // A line item of another teacher's class is theirs: answered as unknown, and left as it is.
  if (existing && !(await reaches(parts, who, existing))) {
    return { kind: 'unknown', problem: `class: there is no class ${lineItem.classSourcedId}.` };
  }
  if (
    existing &&
    existing.marks > 0 &&
    (existing.classId !== section.classId || existing.subjectId !== section.subjectId)
  ) {
    return { kind: 'invalid', problem: 'class: the line item has results in its class; it cannot move to another.' };
  }
  const termId = await termBySourcedId(store, lineItem.sessionSourcedId);
  if (termId === undefined) {
    return {
      kind: 'unknown',
      problem: `gradingPeriod: there is no grading period or term ${lineItem.sessionSourcedId}.`,
    };
  }
  const categoryId =
    lineItem.categorySourcedId === undefined ? null : await categoryBySourcedId(store, lineItem.categorySourcedId);
  if (categoryId === undefined) {
    return { kind: 'unknown', problem: `category: there is no category ${lineItem.categorySourcedId}.` };
  }
  const now = parts.clock().toISOString();
  const written = await inTransaction(store, (transaction) =>
    putAssessment(transaction, {
      sourcedId,
      ...section,
      termId,
      categoryId,
      nameAr: lineItem.title,
      nameEn: lineItem.nameEn ?? lineItem.title,
      heldOn: lineItem.dueDate,
      maxScore: lineItem.resultValueMax,
      modifiedAt: now,
      kept: JSON.stringify({ ...lineItem.row, dateLastModified: now }),
    }),
  );
  parts.changed();
  auditWrite(parts, who, address, 'PUT lineItems', { students: [], classes: [section.classId] });
  return { kind: 'written', created: written.created };
}

export async function deleteLineItem(
  parts: WriteParts,
  who: Identity,
  address: string,
  sourcedId: string,
): Promise<WriteOutcome> {
  if (!WRITERS.has(who.scope.kind)) return FORBIDDEN;
  const existing = await assessmentBySourcedId(parts.store, sourcedId);
  if (!existing || !(await reaches(parts, who, existing))) {
    return { kind: 'unknown', problem: `There is no line item ${sourcedId}.` };
  }
  const at = parts.clock().toISOString();
  // The line item and its results are deleted for a consumer reading changes too, in the same transaction.
  const { students } = await inTransaction(parts.store, async (transaction) => {
    const deleted = await deleteAssessment(transaction, existing.id, sourcedId);
    await recordTombstones(transaction, 'assessments', [sourcedId], at);
    // A result without a score is tombstoned as a mark, as DELETE /results/{id} does for one.
    await recordTombstones(transaction, 'marks', deleted.results, at);
    return deleted;
  });
  parts.changed();
  auditWrite(parts, who, address, 'DELETE lineItems', { students, classes: [existing.classId] });
  return { kind: 'deleted' };
}
