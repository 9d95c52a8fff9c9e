import { teacherGroups } from '../store/queries/classes';
import { classSubjects } from '../store/queries/students';
import { identifier } from './identifier';
import { defineOperation } from './operation';
import { IDENTIFIER, QUERY } from './policy-rows';

/**
 * Queries about a teacher's classes. Unknown identifiers give an empty list; so does a teacher
 * other than the caller, for a teacher-scoped caller, and a class outside a guardian's or
 * student's scope.
 */
export const getTeacherSubjectsById = defineOperation('GetTeacherSubjectsByID', {
  policy: {
    ...QUERY,
    bounds: { Tid: IDENTIFIER, TClassid: IDENTIFIER },
    records: { Tid: 'class-teacher', TClassid: 'class' },
  },
  decode: ({ Tid, TClassid }) => ({ teacherId: identifier(Tid), classId: identifier(TClassid) }),
  run: async ({ teacherId, classId }, { store, visibility }) => {
    if (teacherId === undefined || classId === undefined) return [];
    const ownTeacher = visibility.teacherId;
    if (ownTeacher !== undefined ? ownTeacher !== teacherId : !(await visibility.class(classId))) return [];
    return classSubjects(store, classId, teacherId);
  },
});

export const getTeacherGroupsById = defineOperation('GetTeacherGrpupsByID', {
  policy: { ...QUERY, bounds: { Tid: IDENTIFIER }, records: { Tid: 'own-teacher' } },
  decode: ({ Tid }) => ({ teacherId: identifier(Tid) }),
  run: ({ teacherId }, { store, today, visibility }) => {
    const mayList = visibility.seesEverything || visibility.teacherId === teacherId;
    return teacherId === undefined || !mayList ? [] : teacherGroups(store, teacherId, today);
  },
});
