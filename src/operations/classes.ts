import { classAttendance, classGeneralNotes } from '../store/queries/classes';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/**
 * Class-wide queries: the attendance audit and the general notes, of a class the caller's scope
 * includes. A guardian or student sees only their own entries of the attendance.
 */
export const getAllAuditsByClassId = defineOperation('GetAllAuditsByClassId', {
  decode: ({ classId }) => ({ classId: identifier(classId) }),
  run: async ({ classId }, { store, visibility }) => {
    if (classId === undefined || !(await visibility.class(classId))) return [];
    const entries = await classAttendance(store, classId);
    const shown = await visibility.studentsShownInClass();
    return shown === undefined ? entries : entries.filter((entry) => shown.has(entry.studentId));
  },
});

export const getStudentsGnote = defineOperation('GetStudentsGnote', {
  decode: ({ ClassID }) => ({ classId: identifier(ClassID) }),
  run: async ({ classId }, { store, visibility }) =>
    classId === undefined || !(await visibility.class(classId)) ? [] : classGeneralNotes(store, classId),
});
