import type { BulkWriter, Row } from '../store/bulk-writer';
import { schoolDays, termsOf } from './calendar';
import {
  ABSENCE_TYPES,
  ASSESSMENTS,
  CLASS_NOTES,
  GRADE_NAMES_AR,
  NOTE_SENTENCES_AR,
  NOTE_TYPES,
  SECTIONS,
  SUBJECTS,
} from './fixed-lists';
import { FAMILY_NAMES, FEMALE_FIRST_NAMES, MALE_FIRST_NAMES } from './names';
import { fullName, hexToken, mobileNumber, randomPerson } from './people';
import { Random } from './random';

/**
 * Generates a whole demo school for one academic year into a bulk writer: calendar, grades and
 * class sections, subjects, teachers and their assignments, students with bilingual names and
 * enrolments, guardians with phones and push devices, assessments and marks, attendance, notes,
 * class announcements, and exams with timetables. The same seed and year give the same school.
 */
export interface DemoOptions {
  readonly students: number;
  readonly seed: number;
  /** The calendar year the academic year starts in (September). */
  readonly startYear: number;
  readonly onProgress?: (studentsDone: number, studentsTotal: number) => void;
}

export interface DemoSummary {
  readonly students: number;
  readonly classes: number;
  readonly teachers: number;
  readonly marks: number;
  readonly attendance: number;
}

const STUDENTS_PER_SECTION = 28;
const GRADES = 12;
const CLASS_SUBJECTS_PER_TEACHER = 6;
export const DEMO_APPLICATION_ID = 'school-app';

interface ClassPlan {
  id: number;
  grade: number;
  nameAr: string;
  nameEn: string;
  subjectIds: number[];
  teacherBySubject: Map<number, number>;
  studentCount: number;
}

class Counter {
  private value = 0;
  next(): number {
    this.value += 1;
    return this.value;
  }
  get count(): number {
    return this.value;
  }
}

export async function generateDemoSchool(writer: BulkWriter, options: DemoOptions): Promise<DemoSummary> {
  const random = new Random(options.seed);
  const terms = termsOf(options.startYear);

  await writer.insert('schools', [{ id: 1, name_ar: 'مدارس النور الأهلية', name_en: 'Al-Noor Private Schools' }]);
  await writer.insert('academic_years', [
    {
      id: 1,
      name: `${options.startYear}/${options.startYear + 1}`,
      starts_on: terms[0].startsOn,
      ends_on: terms[2].endsOn,
    },
  ]);
  await writer.insert(
    'terms',
    terms.map((term, index) => ({
      id: index + 1,
      academic_year_id: 1,
      name_ar: term.nameAr,
      name_en: term.nameEn,
      starts_on: term.startsOn,
      ends_on: term.endsOn,
    })),
  );
  await writer.insert(
    'grade_levels',
    GRADE_NAMES_AR.map((nameAr, index) => ({
      id: index + 1,
      ordinal: index + 1,
      name_ar: `الصف ${nameAr}`,
      name_en: `Grade ${index + 1}`,
    })),
  );
  await writer.insert(
    'subjects',
    SUBJECTS.map((subject, index) => ({
      id: index + 1,
      code: subject.code,
      name_ar: subject.nameAr,
      name_en: subject.nameEn,
    })),
  );
  await writer.insert(
    'assessment_categories',
    ASSESSMENTS.map(([nameAr, nameEn], index) => ({ id: index + 1, name_ar: nameAr, name_en: nameEn })),
  );
  await writer.insert(
    'absence_types',
    ABSENCE_TYPES.map(([nameAr, nameEn], index) => ({ id: index + 1, name_ar: nameAr, name_en: nameEn })),
  );
  await writer.insert(
    'note_types',
    NOTE_TYPES.map(([nameAr, nameEn, positive], index) => ({
      id: index + 1,
      name_ar: nameAr,
      name_en: nameEn,
      is_positive: positive ? 1 : 0,
    })),
  );

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

/** A, B, ... T, then A2, B2, ...: large grades have more sections than letters. */
function sectionNames(index: number): readonly [string, string] {
  const [arabic, english] = SECTIONS[index % SECTIONS.length];
  const round = Math.floor(index / SECTIONS.length);
  return round === 0 ? [arabic, english] : [`${arabic}${round + 1}`, `${english}${round + 1}`];
}

/** Spreads the students over 12 grades and each grade over sections of about 28. */
async function planClasses(writer: BulkWriter, students: number): Promise<ClassPlan[]> {
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
async function planTeachers(writer: BulkWriter, random: Random, classes: ClassPlan[]): Promise<number> {
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

interface TermWithDays {
  id: number;
  startsOn: string;
  days: string[];
}

/** Students class by class, with everything that hangs off them, so memory stays bounded. */
async function enrolStudents(
  writer: BulkWriter,
  random: Random,
  classes: ClassPlan[],
  options: DemoOptions,
  terms: TermWithDays[],
) {
  const ids = {
    student: new Counter(),
    guardian: new Counter(),
    device: new Counter(),
    assessment: new Counter(),
    mark: new Counter(),
    attendance: new Counter(),
    note: new Counter(),
    classNote: new Counter(),
  };
  for (const plan of classes) {
    const students: Row<'students'>[] = [];
    const records: Row<'student_records'>[] = [];
    const guardians: Row<'guardians'>[] = [];
    const links: Row<'student_guardians'>[] = [];
    const devices: Row<'devices'>[] = [];
    const abilities: number[] = [];
    // Record ids run backwards within a class so that a student's record id and student id differ,
    // as they do in a school with years of history, and a query that mixes them up shows it.
    const firstRecordId = ids.student.count + 1;
    for (let seat = 0; seat < plan.studentCount; seat += 1) {
      const studentId = ids.student.next();
      const gender = random.chance(0.5) ? 'M' : 'F';
      const family = random.pick(FAMILY_NAMES);
      const father = random.pick(MALE_FIRST_NAMES);
      const name = fullName(random.pick(gender === 'M' ? MALE_FIRST_NAMES : FEMALE_FIRST_NAMES), father, family);
      const birthYear = options.startYear - 6 - plan.grade + 1;
      students.push({
        id: studentId,
        name_ar: name.ar,
        name_en: name.en,
        gender,
        birth_date:
          `${birthYear}-${String(random.int(1, 12)).padStart(2, '0')}-` +
          `${String(random.int(1, 28)).padStart(2, '0')}`,
        phone: plan.grade >= 7 && random.chance(0.5) ? mobileNumber(random) : null,
      });
      records.push({
        id: firstRecordId + plan.studentCount - 1 - seat,
        student_id: studentId,
        class_id: plan.id,
        academic_year_id: 1,
        enrolled_on: terms[0].startsOn,
        status: 'active',
      });
      abilities.push(random.score(0.74, 0.3, 0.3, 1));
      const fatherName = fullName(father, random.pick(MALE_FIRST_NAMES), family);
      const guardianIds = [ids.guardian.next()];
      guardians.push({
        id: guardianIds[0],
        name_ar: fatherName.ar,
        name_en: fatherName.en,
        phone: mobileNumber(random),
      });
      links.push({ student_id: studentId, guardian_id: guardianIds[0], relation: 'father' });
      if (random.chance(0.5)) {
        const mother = randomPerson(random, 'F');
        guardianIds.push(ids.guardian.next());
        guardians.push({ id: guardianIds[1], name_ar: mother.ar, name_en: mother.en, phone: mobileNumber(random) });
        links.push({ student_id: studentId, guardian_id: guardianIds[1], relation: 'mother' });
      }
      for (const guardianId of guardianIds) {
        if (!random.chance(0.7)) continue;
        const deviceId = ids.device.next();
        devices.push({
          id: deviceId,
          guardian_id: guardianId,
          application_id: DEMO_APPLICATION_ID,
          device_id: `device-${deviceId}`,
          push_token: hexToken(random, 64),
          platform: random.chance(0.6) ? 'android' : 'ios',
          enabled: 1,
        });
      }
    }
    await writer.insert('students', students);
    await writer.insert('student_records', records);
    await writer.insert('guardians', guardians);
    await writer.insert('student_guardians', links);
    await writer.insert('devices', devices);
    await writeMarks(writer, random, plan, records, abilities, terms, ids);
    await writeAttendanceAndNotes(writer, random, plan, records, terms, ids);
    options.onProgress?.(ids.student.count, options.students);
  }
  return { students: ids.student.count, marks: ids.mark.count, attendance: ids.attendance.count };
}

type Ids = Record<
  'student' | 'guardian' | 'device' | 'assessment' | 'mark' | 'attendance' | 'note' | 'classNote',
  Counter
>;

async function writeMarks(
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

async function writeAttendanceAndNotes(
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

/**
 * A midterm and a final exam per term for each class, as schools schedule them: each class sits
 * one subject a day, 08:00 to 10:00, in its own room. An exam's timetable is then one class's,
 * what a student's family looks up, and its size does not grow with the school.
 */
async function planExams(
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
