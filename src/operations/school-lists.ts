import { examTimetable, examTimetableInClasses, noteTypes } from '../store/queries/school-lists';
import { identifier } from './identifier';
import { defineOperation } from './operation';
import { IDENTIFIER, QUERY } from './policy-rows';

/**
 * School-wide lookups: an exam's timetable, of the classes the caller's scope includes (none of
 * them: as an unknown exam), and the note types, which are no one's records.
 */
export const getExamTableByExamId = defineOperation('GetExamTableByExamId', {
  policy: { ...QUERY, bounds: { ExamId: IDENTIFIER }, records: { ExamId: 'exam' } },
  decode: ({ ExamId }) => ({ examId: identifier(ExamId) }),
  run: async ({ examId }, { store, visibility }) => {
    if (examId === undefined) return undefined;
    if (visibility.seesEverything) return examTimetable(store, examId);
    // A scoped caller's classes are read whatever the exam, and its slots looked for only in them:
    // an exam outside the scope then takes as long to answer as an unknown one.
    return examTimetableInClasses(store, examId, (await visibility.classes()) as ReadonlySet<number>);
  },
});

export const getStudentsNoteType = defineOperation('GetStudentsNoteType', {
  policy: { ...QUERY, audit: 'none', bounds: {}, records: {} },
  decode: () => ({}),
  run: (_decoded, { store }) => noteTypes(store),
});
