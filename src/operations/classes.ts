import { defineOperation } from './operation';

/** Class-wide queries: attendance audit and general notes; they read the store once it lands. */
export const getAllAuditsByClassId = defineOperation({
  name: 'GetAllAuditsByClassId',
  decode: (raw) => ({ classId: raw.string('classId') }),
  run: () => undefined,
});

export const getStudentsGnote = defineOperation({
  name: 'GetStudentsGnote',
  decode: (raw) => ({ classId: raw.string('ClassID') }),
  run: () => undefined,
});
