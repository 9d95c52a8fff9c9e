import type { BulkWriter, Row } from '../store/bulk-writer';
import { type ClassPlan, Counter, type Ids, type TermWithDays } from './class-plan';
import { writeAttendanceAndNotes, writeMarks } from './class-records';
import { FAMILY_NAMES, FEMALE_FIRST_NAMES, MALE_FIRST_NAMES, type NamePair } from './names';
import { fullName, hexToken, mobileNumber, randomPerson } from './people';
import type { Random } from './random';

/** The push application the demo's devices are registered with. */
export const DEMO_APPLICATION_ID = 'school-app';

/** Told after each class: the students done and the students in all. */
export type DemoProgress = (studentsDone: number, studentsTotal: number) => void;

/** The rows of one class's students, written together once the class is filled. */
interface ClassPeople {
  readonly students: Row<'students'>[];
  readonly records: Row<'student_records'>[];
  readonly guardians: Row<'guardians'>[];
  readonly links: Row<'student_guardians'>[];
  readonly devices: Row<'devices'>[];
  /** Each student's ability, by seat: the share of an assessment's points their marks centre on. */
  readonly abilities: number[];
}

/** What a student is placed with: the class, the year it starts in and the day enrolments start. */
interface Placement {
  readonly plan: ClassPlan;
  readonly startYear: number;
  readonly enrolledOn: string;
}

/** Students class by class, with everything that hangs off them, so memory stays bounded. */
export async function enrolStudents(
  writer: BulkWriter,
  random: Random,
  classes: ClassPlan[],
  options: { readonly students: number; readonly startYear: number; readonly onProgress?: DemoProgress },
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
    const people: ClassPeople = { students: [], records: [], guardians: [], links: [], devices: [], abilities: [] };
    const placement = { plan, startYear: options.startYear, enrolledOn: terms[0].startsOn };
    // Record ids run backwards within a class so that a student's record id and student id differ,
    // as they do in a school with years of history, and a query that mixes them up shows it.
    const firstRecordId = ids.student.count + 1;
    for (let seat = 0; seat < plan.studentCount; seat += 1) {
      addStudent(people, random, placement, ids, firstRecordId + plan.studentCount - 1 - seat);
    }
    await writer.insert('students', people.students);
    await writer.insert('student_records', people.records);
    await writer.insert('guardians', people.guardians);
    await writer.insert('student_guardians', people.links);
    await writer.insert('devices', people.devices);
    await writeMarks(writer, random, plan, people.records, people.abilities, terms, ids);
    await writeAttendanceAndNotes(writer, random, plan, people.records, terms, ids);
    options.onProgress?.(ids.student.count, options.students);
  }
  return { students: ids.student.count, marks: ids.mark.count, attendance: ids.attendance.count };
}

/** One student with their record in the class, their ability, and their guardians. */
function addStudent(people: ClassPeople, random: Random, placement: Placement, ids: Ids, recordId: number): void {
  const { plan } = placement;
  const studentId = ids.student.next();
  const gender = random.chance(0.5) ? 'M' : 'F';
  const family = random.pick(FAMILY_NAMES);
  const father = random.pick(MALE_FIRST_NAMES);
  const name = fullName(random.pick(gender === 'M' ? MALE_FIRST_NAMES : FEMALE_FIRST_NAMES), father, family);
  const birthYear = placement.startYear - 6 - plan.grade + 1;
  people.students.push({
    id: studentId,
    name_ar: name.ar,
    name_en: name.en,
    gender,
    birth_date:
      `${birthYear}-${String(random.int(1, 12)).padStart(2, '0')}-` + `${String(random.int(1, 28)).padStart(2, '0')}`,
    phone: plan.grade >= 7 && random.chance(0.5) ? mobileNumber(random) : null,
  });
  people.records.push({
    id: recordId,
    student_id: studentId,
    class_id: plan.id,
    academic_year_id: 1,
    enrolled_on: placement.enrolledOn,
    status: 'active',
  });
  people.abilities.push(random.score(0.74, 0.3, 0.3, 1));
  addGuardians(people, random, ids, studentId, { father, family });
}

/** The student's father, half the time their mother too, and the phones most of them registered. */
function addGuardians(
  people: ClassPeople,
  random: Random,
  ids: Ids,
  studentId: number,
  names: { readonly father: NamePair; readonly family: NamePair },
): void {
  const fatherName = fullName(names.father, random.pick(MALE_FIRST_NAMES), names.family);
  const guardianIds = [ids.guardian.next()];
  people.guardians.push({
    id: guardianIds[0],
    name_ar: fatherName.ar,
    name_en: fatherName.en,
    phone: mobileNumber(random),
  });
  people.links.push({ student_id: studentId, guardian_id: guardianIds[0], relation: 'father' });
  if (random.chance(0.5)) {
    const mother = randomPerson(random, 'F');
    guardianIds.push(ids.guardian.next());
    people.guardians.push({ id: guardianIds[1], name_ar: mother.ar, name_en: mother.en, phone: mobileNumber(random) });
    people.links.push({ student_id: studentId, guardian_id: guardianIds[1], relation: 'mother' });
  }
  for (const guardianId of guardianIds) {
    if (!random.chance(0.7)) continue;
    const deviceId = ids.device.next();
    people.devices.push({
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
