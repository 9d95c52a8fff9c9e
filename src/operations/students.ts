import {
  studentInfoByRecordId,
  studentInfoByStudentId,
  studentMarks,
  studentNotes,
  studentSubjects,
} from '../store/queries/students';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/** Queries about one student. An identifier the store does not know gives an empty result. */
export const getStudentInfoByRecId = defineOperation('GetStudentInfoByRecId', {
  decode: ({ StudentRecId }) => ({ recordId: identifier(StudentRecId) }),
  run: ({ recordId }, { store }) => (recordId === undefined ? undefined : studentInfoByRecordId(store, recordId)),
});

export const getStudentInfoById = defineOperation('GetStudentInfoById', {
  decode: ({ StudentId }) => ({ studentId: identifier(StudentId) }),
  run: ({ studentId }, { store, today }) =>
    studentId === undefined ? undefined : studentInfoByStudentId(store, studentId, today),
});

export const getStudentSubjectsById = defineOperation('GetStudentSubjectsByID', {
  decode: ({ STDid }) => ({ studentId: identifier(STDid) }),
  run: ({ studentId }, { store, today }) => (studentId === undefined ? [] : studentSubjects(store, studentId, today)),
});

export const getStudentsMarks2 = defineOperation('GetStudentsMarks2', {
  decode: ({ StudnetID, SubjectID }) => ({ studentId: identifier(StudnetID), subjectId: identifier(SubjectID) }),
  run: ({ studentId, subjectId }, { store, today }) =>
    studentId === undefined || subjectId === undefined ? [] : studentMarks(store, studentId, subjectId, today),
});

export const getStudentNoteById = defineOperation('GetStudentNoteByID', {
  decode: ({ STDid }) => ({ studentId: identifier(STDid) }),
  run: ({ studentId }, { store }) => (studentId === undefined ? [] : studentNotes(store, studentId)),
});
