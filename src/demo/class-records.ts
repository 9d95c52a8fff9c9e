import type { BulkWriter, Row } from '../store/bulk-writer';
import type { ClassPlan, Ids, TermWithDays } from './class-plan';
import { ABSENCE_TYPES, ASSESSMENTS, CLASS_NOTES, NOTE_SENTENCES_AR, NOTE_TYPES } from './fixed-lists';
import type { Random } from './random';

/**
 * Each subject's assessments of a class, term by term, and every student's mark in each, drawn
 * around the student's ability.
 */
export async function writeMarks(
  writer: BulkWriter,
  random: Random,
  plan: ClassPlan,
  records: Row<'student_records'>[],
  abilities: number[],
  terms: TermWithDays[],
  ids: Ids,
) {
  const assessments: Row<'assessments'>[] = [];
  const marks: Row<'marks'>[] = [];
  for (const term of terms) {
    for (const subjectId of plan.subjectIds) {
      ASSESSMENTS.forEach(([nameAr, nameEn, maxScore], order) => {
        const assessmentId = ids.assessment.next();
        const day =
          term.days[
            Math.min(
              term.days.length - 1,
              Math.floor(((order + 1) * term.days.length) / (ASSESSMENTS.length + 1)) + subjectId,
            )
          ];
        assessments.push({
          id: assessmentId,
          class_id: plan.id,
          subject_id: subjectId,
          term_id: term.id,
          name_ar: nameAr,
          name_en: nameEn,
          held_on: day,
          max_score: maxScore,
          category_id: order + 1,
        });
        records.forEach((record, seat) => {
          marks.push({
            id: ids.mark.next(),
            assessment_id: assessmentId,
            student_record_id: record.id as number,
            score: random.score(abilities[seat] * maxScore, maxScore * 0.25, 0, maxScore),
          });
        });
      });
    }
  }
  await writer.insert('assessments', assessments);
  await writer.insert('marks', marks);
}

/** A class's year of attendance (absences and latenesses), notes on its students and announcements. */
export async function writeAttendanceAndNotes(
  writer: BulkWriter,
  random: Random,
  plan: ClassPlan,
  records: Row<'student_records'>[],
  terms: TermWithDays[],
  ids: Ids,
) {
  const attendance: Row<'attendance'>[] = [];
  const notes: Row<'student_notes'>[] = [];
  const teachers = [...plan.teacherBySubject.values()];
  const allDays = terms.flatMap((term) => term.days);
  for (const record of records) {
    const days = new Set<string>();
    const absences = random.int(0, 10);
    const latenesses = random.int(0, 5);
    for (let index = 0; index < absences + latenesses; index += 1) days.add(random.pick(allDays));
    [...days].sort().forEach((day, index) => {
      const absent = index < absences;
      attendance.push({
        id: ids.attendance.next(),
        student_record_id: record.id as number,
        occurred_on: day,
        kind: absent ? 'absence' : 'lateness',
        absence_type_id: absent ? random.int(1, ABSENCE_TYPES.length) : null,
        minutes_late: absent ? null : random.int(5, 40),
        note: random.chance(0.2) ? 'تم التواصل مع ولي الأمر' : null,
      });
    });
    for (let count = random.int(0, 4); count > 0; count -= 1) {
      notes.push({
        id: ids.note.next(),
        student_id: record.student_id as number,
        note_type_id: random.int(1, NOTE_TYPES.length),
        teacher_id: random.pick(teachers),
        written_on: random.pick(allDays),
        text: random.pick(NOTE_SENTENCES_AR),
      });
    }
  }
  const classNotes: Row<'class_notes'>[] = CLASS_NOTES.map(([title, text], index) => ({
    id: ids.classNote.next(),
    class_id: plan.id,
    teacher_id: teachers[index % teachers.length],
    posted_on: allDays[Math.floor(((index + 1) * allDays.length) / (CLASS_NOTES.length + 1))],
    title,
    text,
  }));
  await writer.insert('attendance', attendance);
  await writer.insert('student_notes', notes);
  await writer.insert('class_notes', classNotes);
}
