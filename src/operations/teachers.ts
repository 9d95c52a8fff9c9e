import { teacherGroups } from '../store/queries/classes';
import { classSubjects } from '../store/queries/students';
import { defineOperation } from './operation';

/** Queries about a teacher's classes. Unknown identifiers give an empty list. */
export const getTeacherSubjectsById = defineOperation({
  name: 'GetTeacherSubjectsByID',
  decode: (raw) => ({ teacherId: raw.identifier('Tid'), classId: raw.identifier('TClassid') }),
  run: ({ teacherId, classId }, { db }) =>
    teacherId === undefined || classId === undefined ? [] : classSubjects(db, classId, teacherId),
});

export const getTeacherGroupsById = defineOperation({
  name: 'GetTeacherGrpupsByID',
  decode: (raw) => ({ teacherId: raw.identifier('Tid') }),
  run: ({ teacherId }, { db, today }) => (teacherId === undefined ? [] : teacherGroups(db, teacherId, today)),
});
