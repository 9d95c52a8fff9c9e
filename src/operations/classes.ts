import { classAttendance, classGeneralNotes } from '../store/queries/classes';
import { identifier } from './identifier';
import { defineOperation } from './operation';
import { IDENTIFIER, QUERY } from './policy-rows';

/**
 * Class-wide queries: the attendance audit and the general notes, of a class the caller's scope
 * includes. A guardian or student sees only their own entries of the attendance.
 */
export const getAllAuditsByClassId = defineOperation('GetAllAuditsByClassId', {
  policy: { ...QUERY, audit: 'class', bounds: { classId: IDENTIFIER }, records: { classId: 'class' } },
  decode: ({ classId }) => ({ classId: identifier(classId) }),
  run: async ({ classId }, { store, visibility, touched }) => {
    if (classId === undefined || !(await visibility.class(classId))) return [];
    const entries = await classAttendance(store, classId);
    // Audited by its class (its policy's audit rule is 'class'), and by the
    // only students a guardian or student sees.
    touched('class', classId);
    const shown = await visibility.studentsShownInClass();
    if (shown === undefined) return entries;
    const own = entries.filter((entry) => shown.has(entry.studentId));
    for (const entry of own) touched('student', entry.studentId);
    return own;
  },
});

export const getStudentsGnote = defineOperation('GetStudentsGnote', {
  policy: { ...QUERY, bounds: { ClassID: IDENTIFIER }, records: { ClassID: 'class' } },
  decode: ({ ClassID }) => ({ classId: identifier(ClassID) }),
  run: async ({ classId }, { store, visibility }) =>
    classId === undefined || !(await visibility.class(classId)) ? [] : classGeneralNotes(store, classId),
});
