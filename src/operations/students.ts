import { defineOperation } from './operation';

/** Student queries; they read the store once the store issue lands. */
export const getStudentInfoByRecId = defineOperation({
  name: 'GetStudentInfoByRecId',
  decode: (raw) => ({ studentRecordId: raw.string('StudentRecId') }),
  run: () => undefined,
});

export const getStudentInfoById = defineOperation({
  name: 'GetStudentInfoById',
  decode: (raw) => ({ studentId: raw.string('StudentId') }),
  run: () => undefined,
});

export const getStudentSubjectsById = defineOperation({
  name: 'GetStudentSubjectsByID',
  decode: (raw) => ({ studentId: raw.string('STDid') }),
  run: () => undefined,
});

export const getStudentsMarks2 = defineOperation({
  name: 'GetStudentsMarks2',
  decode: (raw) => ({ studentId: raw.string('StudnetID'), subjectId: raw.string('SubjectID') }),
  run: () => undefined,
});

export const getStudentNoteById = defineOperation({
  name: 'GetStudentNoteByID',
  decode: (raw) => ({ studentId: raw.string('STDid') }),
  run: () => undefined,
});
