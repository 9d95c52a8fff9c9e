import { classAttendance, classGeneralNotes } from '../store/queries/classes';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/** Class-wide queries: the attendance audit and the general notes. */
export const getAllAuditsByClassId = defineOperation('GetAllAuditsByClassId', {
  decode: ({ classId }) => ({ classId: identifier(classId) }),
  run: ({ classId }, { store }) => (classId === undefined ? [] : classAttendance(store, classId)),
});

export const getStudentsGnote = defineOperation('GetStudentsGnote', {
  decode: ({ ClassID }) => ({ classId: identifier(ClassID) }),
  run: ({ classId }, { store }) => (classId === undefined ? [] : classGeneralNotes(store, classId)),
});
