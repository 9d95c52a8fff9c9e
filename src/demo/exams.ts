import type { BulkWriter, Row } from '../store/bulk-writer';
import type { ClassPlan } from './class-plan';

/**
 * A midterm and a final exam per term for each class, as schools schedule them: each class sits
 * one subject a day, 08:00 to 10:00, in its own room. An exam's timetable is then one class's,
 * what a student's family looks up, and its size does not grow with the school.
 */
export async function planExams(
  writer: BulkWriter,
  classes: ClassPlan[],
  terms: Array<{ id: number; days: string[]; nameAr: string; nameEn: string }>,
) {
  const exams: Row<'exams'>[] = [];
  const slots: Row<'exam_slots'>[] = [];
  for (const term of terms) {
    for (const [kindAr, kindEn, startFraction] of [
      ['اختبارات منتصف', 'Midterm exams', 0.45],
      ['الاختبارات النهائية', 'Final exams', 0.85],
    ] as const) {
      const firstDay = Math.floor(term.days.length * startFraction);
      for (const plan of classes) {
        const examId = exams.length + 1;
        exams.push({
          id: examId,
          term_id: term.id,
          name_ar: `${kindAr} ${term.nameAr} - ${plan.nameAr}`,
          name_en: `${kindEn}, ${term.nameEn.toLowerCase()}, ${plan.nameEn}`,
        });
        plan.subjectIds.forEach((subjectId, order) => {
          slots.push({
            id: slots.length + 1,
            exam_id: examId,
            class_id: plan.id,
            subject_id: subjectId,
            held_on: term.days[Math.min(term.days.length - 1, firstDay + order)],
            starts_at: '08:00',
            ends_at: '10:00',
            room: `${100 + plan.grade * 10 + (plan.id % 10)}`,
          });
        });
      }
    }
  }
  await writer.insert('exams', exams);
  await writer.insert('exam_slots', slots);
}
