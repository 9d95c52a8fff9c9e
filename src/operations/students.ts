import {
  studentInfoByRecordId,
  studentInfoByStudentId,
  studentMarks,
  studentNotes,
  studentSubjects,
} from '../store/queries/students';
import { defineOperation } from './operation';

/** Queries about one student. An identifier the store does not know gives an empty result. */
export const getStudentInfoByRecId = defineOperation({
  name: 'GetStudentInfoByRecId',
  decode: (raw) => ({ studentRecordId: raw.identifier('StudentRecId') }),
  run: ({ studentRecordId }, { db }) =>
    studentRecordId === undefined ? undefined : studentInfoByRecordId(db, studentRecordId),
});

export const getStudentInfoById = defineOperation({
  name: 'GetStudentInfoById',
  decode: (raw) => ({ studentId: raw.identifier('StudentId') }),
  run: ({ studentId }, { db, today }) =>
    studentId === undefined ? undefined : studentInfoByStudentId(db, studentId, today),
});

export const getStudentSubjectsById = defineOperation({
  name: 'GetStudentSubjectsByID',
  decode: (raw) => ({ studentId: raw.identifier('STDid') }),
  run: ({ studentId }, { db, today }) => (studentId === undefined ? [] : studentSubjects(db, studentId, today)),
});

export const getStudentsMarks2 = defineOperation({
  name: 'GetStudentsMarks2',
  decode: (raw) => ({ studentId: raw.identifier('StudnetID'), subjectId: raw.identifier('SubjectID') }),
  run: ({ studentId, subjectId }, { db, today }) =>
    studentId === undefined || subjectId === undefined ? [] : studentMarks(db, studentId, subjectId, today),
});

export const getStudentNoteById = defineOperation({
  name: 'GetStudentNoteByID',
  decode: (raw) => ({ studentId: raw.identifier('STDid') }),
  run: ({ studentId }, { db }) => (studentId === undefined ? [] : studentNotes(db, studentId)),
});
