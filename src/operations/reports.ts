import { defineOperation } from './operation';

/** Report cards and term books; PDF generation arrives with the documents issue. */
export const generateReport = defineOperation({
  name: 'GenerateReport',
  decode: (raw) => ({ studentId: raw.int('studentId'), studentClass: raw.string('studentClass') }),
  run: () => undefined,
});

export const getBookPdfByTerm = defineOperation({
  name: 'GetBookPdfByTerm',
  decode: (raw) => ({ termId: raw.string('termId'), srid: raw.string('srid'), classId: raw.string('classId') }),
  run: () => undefined,
});
