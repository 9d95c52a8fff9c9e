import type { ExamTimetable, NoteType } from '../../contract/operation-types';
import { compiledQuery } from '../compiled-query';
import type { Session } from '../session';
import { absenceTypeNames, allNoteTypes } from './reference';

/** School-wide lists: an exam's timetable and the note types. */

const examQuery = compiledQuery((db, p: { examId: number }) =>
  db
    .selectFrom('exams as exam')
    .innerJoin('terms as term', 'term.id', 'exam.term_id')
    .select([
      'exam.id as examId',
      'exam.name_ar as nameAr',
      'exam.name_en as nameEn',
      'term.id as termId',
      'term.name_ar as termNameAr',
      'term.name_en as termNameEn',
    ])
    .where('exam.id', '=', p.examId),
);

const SLOT_COLUMNS = [
  'slot.held_on as heldOn',
  'slot.starts_at as startsAt',
  'slot.ends_at as endsAt',
  'subject.id as subjectId',
  'subject.name_ar as subjectNameAr',
  'subject.name_en as subjectNameEn',
  'class.id as classId',
  'class.name_ar as classNameAr',
  'class.name_en as classNameEn',
  'slot.room as room',
] as const;

const examSlotsQuery = compiledQuery((db, p: { examId: number }) =>
  db
    .selectFrom('exam_slots as slot')
    .innerJoin('subjects as subject', 'subject.id', 'slot.subject_id')
    .innerJoin('classes as class', 'class.id', 'slot.class_id')
    .select(SLOT_COLUMNS)
    .where('slot.exam_id', '=', p.examId)
    .orderBy('slot.held_on')
    .orderBy('slot.starts_at')
    .orderBy('class.id')
    .orderBy('subject.id'),
);

export async function examTimetable(session: Session, examId: number): Promise<ExamTimetable | undefined> {
  const [exam] = await examQuery(session, { examId });
  if (!exam) return undefined;
  return { ...exam, slots: await examSlotsQuery(session, { examId }) };
}

/**
 * An exam and its slots in the given classes, undefined when it is unknown or has none in them.
 * The slots are looked for first, whatever the exam, class by class (index exam_slots_class_exam),
 * so that an exam with no slot in the classes is looked for exactly as an unknown one is; the exam
 * itself is read only for a timetable that is answered. Kept dynamic: the list of classes has any
 * length.
 */
export async function examTimetableInClasses(
  session: Session,
  examId: number,
  classIds: ReadonlySet<number>,
): Promise<ExamTimetable | undefined> {
  const slots = await session.db
    .selectFrom('exam_slots as slot')
    .innerJoin('subjects as subject', 'subject.id', 'slot.subject_id')
    .innerJoin('classes as class', 'class.id', 'slot.class_id')
    .select(SLOT_COLUMNS)
    .where('slot.exam_id', '=', examId)
    // -1, no class's id, keeps the list from being empty, which is not SQL.
    .where('slot.class_id', 'in', [...classIds, -1])
    .orderBy('slot.held_on')
    .orderBy('slot.starts_at')
    .orderBy('class.id')
    .orderBy('subject.id')
    .execute();
  if (slots.length === 0) return undefined;
  const [exam] = await examQuery(session, { examId });
  return exam ? { ...exam, slots } : undefined;
}

/** The note types, from the store's kept copy when the session has one. */
export async function noteTypes(session: Session): Promise<NoteType[]> {
  return session.reference ? session.reference.noteTypes() : allNoteTypes(session);
}

/** The Arabic name of an absence type, if there is one with that id. */
export async function absenceTypeName(session: Session, absenceTypeId: number): Promise<string | undefined> {
  const names = session.reference ? await session.reference.absenceTypeNames() : await absenceTypeNames(session);
  return names.get(absenceTypeId);
}
