import type { BulkWriter } from '../store/bulk-writer';
import { schoolDays, termsOf } from './calendar';
import { planClasses, planTeachers } from './class-plan';
import { type DemoProgress, enrolStudents } from './enrol-students';
import { planExams } from './exams';
import { Random } from './random';
import { writeReferenceRows } from './reference-rows';

export interface DemoOptions {
  readonly students: number;
  readonly seed: number;
  /** The calendar year the academic year starts in (September). */
  readonly startYear: number;
  readonly onProgress?: DemoProgress;
}

export interface DemoSummary {
  readonly students: number;
  readonly classes: number;
  readonly teachers: number;
  readonly marks: number;
  readonly attendance: number;
}

/**
 * Generates a whole demo school for one academic year into a bulk writer: calendar, grades and
 * class sections, subjects, teachers and their assignments, students with bilingual names and
 * enrolments, guardians with phones and push devices, assessments and marks, attendance, notes,
 * class announcements, and exams with timetables. The same seed and year give the same school.
 */
export async function generateDemoSchool(writer: BulkWriter, options: DemoOptions): Promise<DemoSummary> {
  const random = new Random(options.seed);
  const terms = termsOf(options.startYear);

  await writeReferenceRows(writer, options.startYear, terms);

  const classes = await planClasses(writer, options.students);
  const teacherCount = await planTeachers(writer, random, classes);
  const summary = await enrolStudents(
    writer,
    random,
    classes,
    options,
    terms.map((term, index) => ({ ...term, id: index + 1, days: schoolDays(term.startsOn, term.endsOn) })),
  );
  await planExams(
    writer,
    classes,
    terms.map((term, index) => ({
      id: index + 1,
      days: schoolDays(term.startsOn, term.endsOn),
      nameAr: term.nameAr,
      nameEn: term.nameEn,
    })),
  );
  return { ...summary, classes: classes.length, teachers: teacherCount };
}
