import { examTimetable, noteTypes } from '../store/queries/school-lists';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/** School-wide lookups: an exam's timetable and the note types. */
export const getExamTableByExamId = defineOperation('GetExamTableByExamId', {
  decode: ({ ExamId }) => ({ examId: identifier(ExamId) }),
  run: ({ examId }, { store }) => (examId === undefined ? undefined : examTimetable(store, examId)),
});

export const getStudentsNoteType = defineOperation('GetStudentsNoteType', {
  decode: () => ({}),
  run: (_decoded, { store }) => noteTypes(store),
});
