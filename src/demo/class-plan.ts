import type { BulkWriter, Row } from '../store/bulk-writer';
import { GRADE_NAMES_AR, SECTIONS, SUBJECTS } from './fixed-lists';
import { mobileNumber, randomPerson } from './people';
import type { Random } from './random';

/** The demo school's classes and teachers: how many of each, and who teaches which class. */

const STUDENTS_PER_SECTION = 28;
const GRADES = 12;
const CLASS_SUBJECTS_PER_TEACHER = 6;

/** A class section as the generator fills it: its grade, names, subjects, teachers and size. */
export interface ClassPlan {
  id: number;
  grade: number;
  nameAr: string;
  nameEn: string;
  subjectIds: number[];
  teacherBySubject: Map<number, number>;
  studentCount: number;
}

/** A term with its school days, the dates marks, attendance and notes fall on. */
export interface TermWithDays {
  id: number;
  startsOn: string;
  days: string[];
}

/** The next id of one table, counting from 1. */
export class Counter {
  private value = 0;
  next(): number {
    this.value += 1;
    return this.value;
  }
  get count(): number {
    return this.value;
  }
}

/** The id counters of the tables written class by class. */
export type Ids = Record<
  'student' | 'guardian' | 'device' | 'assessment' | 'mark' | 'attendance' | 'note' | 'classNote',
  Counter
>;

export /** A, B, ... T, then A2, B2, ...: large grades have more sections than letters. */
function sectionNames(index: number): readonly [string, string] {
  const [arabic, english] = SECTIONS[index % SECTIONS.length];
  const round = Math.floor(index / SECTIONS.length);
  return round === 0 ? [arabic, english] : [`${arabic}${round + 1}`, `${english}${round + 1}`];
}

/** Spreads the students over 12 grades and each grade over sections of about 28. */
export async function planClasses(writer: BulkWriter, students: number): Promise<ClassPlan[]> {
  const classes: ClassPlan[] = [];
  const rows: Row<'classes'>[] = [];
  for (let grade = 1; grade <= GRADES; grade += 1) {
    const inGrade = Math.floor(students / GRADES) + (grade <= students % GRADES ? 1 : 0);
    const sections = Math.max(1, Math.ceil(inGrade / STUDENTS_PER_SECTION));
    for (let section = 0; section < sections; section += 1) {
      const id = classes.length + 1;
      const count = Math.floor(inGrade / sections) + (section < inGrade % sections ? 1 : 0);
      const [sectionAr, sectionEn] = sectionNames(section);
      const nameAr = `${GRADE_NAMES_AR[grade - 1]} - ${sectionAr}`;
      const nameEn = `Grade ${grade}-${sectionEn}`;
      rows.push({
        id,
        academic_year_id: 1,
        grade_level_id: grade,
        section: sectionEn,
        name_ar: nameAr,
        name_en: nameEn,
      });
      const subjectIds = SUBJECTS.flatMap((subject, index) =>
        grade >= subject.grades[0] && grade <= subject.grades[1] ? [index + 1] : [],
      );
      classes.push({ id, grade, nameAr, nameEn, subjectIds, teacherBySubject: new Map(), studentCount: count });
    }
  }
  await writer.insert('classes', rows);
  return classes;
}

/** One teacher for every few classes of a subject; each teaches one subject. */
export async function planTeachers(writer: BulkWriter, random: Random, classes: ClassPlan[]): Promise<number> {
  const teachers: Row<'teachers'>[] = [];
  const assignments: Row<'teacher_assignments'>[] = [];
  SUBJECTS.forEach((_subject, index) => {
    const subjectId = index + 1;
    const teaching = classes.filter((plan) => plan.subjectIds.includes(subjectId));
    for (let start = 0; start < teaching.length; start += CLASS_SUBJECTS_PER_TEACHER) {
      const teacherId = teachers.length + 1;
      const name = randomPerson(random, random.chance(0.5) ? 'M' : 'F');
      teachers.push({ id: teacherId, name_ar: name.ar, name_en: name.en, phone: mobileNumber(random) });
      for (const plan of teaching.slice(start, start + CLASS_SUBJECTS_PER_TEACHER)) {
        plan.teacherBySubject.set(subjectId, teacherId);
        assignments.push({
          id: assignments.length + 1,
          teacher_id: teacherId,
          class_id: plan.id,
          subject_id: subjectId,
        });
      }
    }
  });
  await writer.insert(
    'class_subjects',
    classes.flatMap((plan) => plan.subjectIds.map((subjectId) => ({ class_id: plan.id, subject_id: subjectId }))),
  );
  await writer.insert('teachers', teachers);
  await writer.insert('teacher_assignments', assignments);
  return teachers.length;
}
