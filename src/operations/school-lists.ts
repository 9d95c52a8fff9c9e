import { examTimetable, noteTypes } from '../store/queries/school-lists';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/**
 * School-wide lookups: an exam's timetable, of the classes the caller's scope includes (none of
 * them: as an unknown exam), and the note types, which are no one's records.
 */
export const getExamTableByExamId = defineOperation('GetExamTableByExamId', {
  decode: ({ ExamId }) => ({ examId: identifier(ExamId) }),
  run: async ({ examId }, { store, visibility }) => {
    const timetable = examId === undefined ? undefined : await examTimetable(store, examId);
    if (timetable === undefined || visibility.seesEverything) return timetable;
    const slots = [];
    for (const slot of timetable.slots ?? []) if (slot && (await visibility.class(slot.classId))) slots.push(slot);
    return slots.length === 0 ? undefined : { ...timetable, slots };
  },
});

export const getStudentsNoteType = defineOperation('GetStudentsNoteType', {
  decode: () => ({}),
  run: (_decoded, { store }) => noteTypes(store),
});
