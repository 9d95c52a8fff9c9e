import type { ExamTimetable, NoteType } from '../../contract/operation-types';
import type { Session } from '../session';

/** School-wide lists: an exam's timetable and the note types. */

export async function examTimetable(session: Session, examId: number): Promise<ExamTimetable | undefined> {
  const { db } = session;
  const exam = await db
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
    .where('exam.id', '=', examId)
    .executeTakeFirst();
  if (!exam) return undefined;
  const slots = await db
    .selectFrom('exam_slots as slot')
    .innerJoin('subjects as subject', 'subject.id', 'slot.subject_id')
    .innerJoin('classes as class', 'class.id', 'slot.class_id')
    .select([
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
    ])
    .where('slot.exam_id', '=', examId)
    .orderBy('slot.held_on')
    .orderBy('slot.starts_at')
    .orderBy('class.id')
    .orderBy('subject.id')
    .execute();
  return { ...exam, slots };
}

export async function noteTypes(session: Session): Promise<NoteType[]> {
  const { db } = session;
  const rows = await db
    .selectFrom('note_types')
    .select(['id as noteTypeId', 'name_ar as nameAr', 'name_en as nameEn', 'is_positive as isPositive'])
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ ...row, isPositive: row.isPositive === 1 }));
}

/** The Arabic name of an absence type, if there is one with that id. */
export async function absenceTypeName({ db }: Session, absenceTypeId: number): Promise<string | undefined> {
  const row = await db.selectFrom('absence_types').select('name_ar').where('id', '=', absenceTypeId).executeTakeFirst();
  return row?.name_ar;
}
