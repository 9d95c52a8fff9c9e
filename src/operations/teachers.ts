import { teacherGroups } from '../store/queries/classes';
import { classSubjects } from '../store/queries/students';
import { identifier } from './identifier';
import { defineOperation } from './operation';

/** Queries about a teacher's classes. Unknown identifiers give an empty list. */
export const getTeacherSubjectsById = defineOperation('GetTeacherSubjectsByID', {
  decode: ({ Tid, TClassid }) => ({ teacherId: identifier(Tid), classId: identifier(TClassid) }),
  run: ({ teacherId, classId }, { store }) =>
    teacherId === undefined || classId === undefined ? [] : classSubjects(store, classId, teacherId),
});

export const getTeacherGroupsById = defineOperation('GetTeacherGrpupsByID', {
  decode: ({ Tid }) => ({ teacherId: identifier(Tid) }),
  run: ({ teacherId }, { store, today }) => (teacherId === undefined ? [] : teacherGroups(store, teacherId, today)),
});
