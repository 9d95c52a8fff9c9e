import { defineOperation } from './operation';

/** School-wide lookups: exam timetables and note types; they read the store once it lands. */
export const getExamTableByExamId = defineOperation({
  name: 'GetExamTableByExamId',
  decode: (raw) => ({ examId: raw.string('ExamId') }),
  run: () => undefined,
});

export const getStudentsNoteType = defineOperation({
  name: 'GetStudentsNoteType',
  decode: () => ({}),
  run: () => undefined,
});
