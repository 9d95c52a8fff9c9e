import { studentInfoByStudentId, studentMarks, studentSubjects } from '../../../src/store/queries/students';
import type { Session } from '../../../src/store/session';

/** The fields a typed client reports of the StudentInfo it decoded. */
export interface StudentFields {
  StudentId: number;
  NameAr: string | null;
  NameEn: string | null;
  ClassNameAr: string | null;
  BirthDate: string | null;
}

/** What a typed client reports of the ArrayOfMark it decoded: how many marks, and the first one. */
export interface MarksSummary {
  count: number;
  first: { AssessmentNameAr: string | null; Score: number; MaxScore: number } | null;
}

/** The arguments of the typed calls, as the clients send them (text), and what they must decode. */
export interface TypedCase {
  studentId: string;
  subjectId: string;
  /** Neither a student nor a subject: the answers to it are empty results. */
  unknownId: string;
  student: StudentFields;
  marks: MarksSummary;
}

const UNKNOWN_ID = 999999;

/** Whether Unicode normalisation changes the text, as it does a letter with hamza such as أ. */
const changesUnderNormalisation = (text: string) => text.normalize('NFD') !== text;

/**
 * Picks, from the demo school, the first student whose Arabic name changes under normalisation
 * and the first of their subjects whose first mark this year is fractional, so that a client that
 * normalised text or truncated a double fails the comparison; and reads what the typed operations
 * answer for them, with the queries the operations use.
 */
export async function typedCaseFromStore(store: Session, today: string): Promise<TypedCase> {
  const unknownStudent = await store.db
    .selectFrom('students')
    .select('id')
    .where('id', '=', UNKNOWN_ID)
    .executeTakeFirst();
  const unknownSubject = await store.db
    .selectFrom('subjects')
    .select('id')
    .where('id', '=', UNKNOWN_ID)
    .executeTakeFirst();
  if (unknownStudent !== undefined || unknownSubject !== undefined)
    throw new Error(`the demo school has a student or subject ${UNKNOWN_ID}`);
  const students = await store.db.selectFrom('students').select(['id', 'name_ar']).orderBy('id').execute();
  for (const { id } of students.filter((student) => changesUnderNormalisation(student.name_ar))) {
    const info = await studentInfoByStudentId(store, id, today);
    if (info === undefined) continue;
    for (const { subjectId } of await studentSubjects(store, id, today)) {
      const marks = await studentMarks(store, id, subjectId, today);
      if (marks.length === 0 || Number.isInteger(marks[0].score)) continue;
      const [first] = marks;
      return {
        studentId: String(id),
        subjectId: String(subjectId),
        unknownId: String(UNKNOWN_ID),
        student: {
          StudentId: info.studentId,
          NameAr: info.nameAr,
          NameEn: info.nameEn,
          ClassNameAr: info.classNameAr,
          BirthDate: info.birthDate,
        },
        marks: {
          count: marks.length,
          first: { AssessmentNameAr: first.assessmentNameAr, Score: first.score, MaxScore: first.maxScore },
        },
      };
    }
  }
  throw new Error('the demo school has no student with a hamza in the Arabic name and a fractional first mark');
}
