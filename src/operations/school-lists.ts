import { examTimetable, noteTypes } from '../store/queries/school-lists';
import { defineOperation } from './operation';

/** School-wide lookups: an exam's timetable and the note types. */
export const getExamTableByExamId = defineOperation({
  name: 'GetExamTableByExamId',
  decode: (raw) => ({ examId: raw.identifier('ExamId') }),
  run: ({ examId }, { db }) => (examId === undefined ? undefined : examTimetable(db, examId)),
});

export const getStudentsNoteType = defineOperation({
  name: 'GetStudentsNoteType',
  decode: () => ({}),
  run: (_parameters, { db }) => noteTypes(db),
});
