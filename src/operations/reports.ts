import { issueDocument } from '../documents/issue-document';
import { currentTermId } from '../store/queries/calendar';
import { studentRecordForTerm } from '../store/queries/report-content';
import { defineOperation } from './operation';

/**
 * Report cards and term books as PDF documents. The result carries the file (name, content type,
 * size, bytes); the documented profile does not show it, but the document is issued and stored all
 * the same. A student, record, class or term that does not fit together gives an empty result.
 */
export const generateReport = defineOperation({
  name: 'GenerateReport',
  decode: (raw) => ({ studentId: raw.int('studentId'), classId: raw.identifier('studentClass') }),
  run: async ({ studentId, classId }, { db, today }) => {
    const termId = await currentTermId(db, today);
    if (classId === undefined || termId === undefined) return undefined;
    const studentRecordId = await studentRecordForTerm(db, studentId, termId);
    return studentRecordId === undefined
      ? undefined
      : issueDocument(db, 'report-card', { studentRecordId, classId, termId }, today);
  },
});

export const getBookPdfByTerm = defineOperation({
  name: 'GetBookPdfByTerm',
  decode: (raw) => ({
    termId: raw.identifier('termId'),
    studentRecordId: raw.identifier('srid'),
    classId: raw.identifier('classId'),
  }),
  run: ({ termId, studentRecordId, classId }, { db, today }) =>
    termId === undefined || studentRecordId === undefined || classId === undefined
      ? undefined
      : issueDocument(db, 'term-book', { studentRecordId, classId, termId }, today),
});
