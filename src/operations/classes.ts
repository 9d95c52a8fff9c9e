import { classAttendance, classGeneralNotes } from '../store/queries/classes';
import { defineOperation } from './operation';

/** Class-wide queries: the attendance audit and the general notes. */
export const getAllAuditsByClassId = defineOperation({
  name: 'GetAllAuditsByClassId',
  decode: (raw) => ({ classId: raw.identifier('classId') }),
  run: ({ classId }, { db, engine }) => (classId === undefined ? [] : classAttendance(db, engine, classId)),
});

export const getStudentsGnote = defineOperation({
  name: 'GetStudentsGnote',
  decode: (raw) => ({ classId: raw.identifier('ClassID') }),
  run: ({ classId }, { db }) => (classId === undefined ? [] : classGeneralNotes(db, classId)),
});
