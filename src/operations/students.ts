import type { Visibility } from '../access/visibility';
import type { StudentInfo } from '../contract/operation-types';
import {
  studentInfoByRecordId,
  studentInfoByStudentId,
  studentMarks,
  studentNotes,
  studentSubjects,
} from '../store/queries/students';
import { identifier } from './identifier';
import { defineOperation } from './operation';
import { IDENTIFIER, QUERY } from './policy-rows';

/**
 * Queries about one student. An identifier the store does not know, or a student outside the
 * caller's scope, gives an empty result. Phone numbers and birth dates go to school-scoped
 * callers only; a birth date the store does not know is nil.
 */
function shownTo(visibility: Visibility, info: StudentInfo | undefined): StudentInfo | undefined {
  if (info === undefined) return undefined;
  // A school whose roster has no demographics for a student holds no birth date: nil, not an empty dateTime.
  const known = info.birthDate === '' ? { ...info, birthDate: null } : info;
  return visibility.seesEverything ? known : { ...known, phone: null, birthDate: null };
}

export const getStudentInfoByRecId = defineOperation('GetStudentInfoByRecId', {
  policy: { ...QUERY, bounds: { StudentRecId: IDENTIFIER }, records: { StudentRecId: 'enrolment' } },
  decode: ({ StudentRecId }) => ({ recordId: identifier(StudentRecId) }),
  run: async ({ recordId }, { store, visibility }) => {
    if (recordId === undefined) return undefined;
    // The school sees every record: no need to look up whose this one is.
    if (!visibility.seesEverything && !(await visibility.enrolment(recordId))) return undefined;
    return shownTo(visibility, await studentInfoByRecordId(store, recordId));
  },
});

export const getStudentInfoById = defineOperation('GetStudentInfoById', {
  policy: { ...QUERY, bounds: { StudentId: IDENTIFIER }, records: { StudentId: 'student' } },
  decode: ({ StudentId }) => ({ studentId: identifier(StudentId) }),
  run: async ({ studentId }, { store, today, visibility }) => {
    if (studentId === undefined || !(await visibility.student(studentId))) return undefined;
    return shownTo(visibility, await studentInfoByStudentId(store, studentId, today));
  },
});

export const getStudentSubjectsById = defineOperation('GetStudentSubjectsByID', {
  policy: { ...QUERY, bounds: { STDid: IDENTIFIER }, records: { STDid: 'student' } },
  decode: ({ STDid }) => ({ studentId: identifier(STDid) }),
  run: async ({ studentId }, { store, today, visibility, touched }) => {
    if (studentId === undefined || !(await visibility.student(studentId))) return [];
    touched('student', studentId);
    const subjects = await studentSubjects(store, studentId, today);
    const { teacherId } = visibility;
    return teacherId === undefined ? subjects : subjects.filter((subject) => subject.teacherId === teacherId);
  },
});

export const getStudentsMarks2 = defineOperation('GetStudentsMarks2', {
  policy: {
    ...QUERY,
    bounds: { StudnetID: IDENTIFIER, SubjectID: IDENTIFIER },
    records: { StudnetID: 'student', SubjectID: 'subject-of-student' },
  },
  decode: ({ StudnetID, SubjectID }) => ({ studentId: identifier(StudnetID), subjectId: identifier(SubjectID) }),
  run: async ({ studentId, subjectId }, { store, today, visibility, touched }) => {
    if (studentId === undefined || subjectId === undefined) return [];
    if (!(await visibility.studentSubject(studentId, subjectId))) return [];
    touched('student', studentId);
    return studentMarks(store, studentId, subjectId, today);
  },
});

export const getStudentNoteById = defineOperation('GetStudentNoteByID', {
  policy: { ...QUERY, bounds: { STDid: IDENTIFIER }, records: { STDid: 'student' } },
  decode: ({ STDid }) => ({ studentId: identifier(STDid) }),
  run: async ({ studentId }, { store, visibility, touched }) => {
    if (studentId === undefined || !(await visibility.student(studentId))) return [];
    touched('student', studentId);
    return studentNotes(store, studentId);
  },
});
