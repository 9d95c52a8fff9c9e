import { defineOperation } from './operation';

/** Teacher queries; they read the store once the store issue lands. */
export const getTeacherSubjectsById = defineOperation({
  name: 'GetTeacherSubjectsByID',
  decode: (raw) => ({ teacherId: raw.string('Tid'), classId: raw.string('TClassid') }),
  run: () => undefined,
});

export const getTeacherGroupsById = defineOperation({
  name: 'GetTeacherGrpupsByID',
  decode: (raw) => ({ teacherId: raw.string('Tid') }),
  run: () => undefined,
});
