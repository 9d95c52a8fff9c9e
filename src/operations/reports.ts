import { issueDocument } from '../documents/issue-document';
import { currentTermId } from '../store/queries/calendar';
import { studentRecordForTerm } from '../store/queries/report-content';
import { identifier } from './identifier';
import { defineOperation } from './operation';
import { IDENTIFIER } from './policy-rows';

/**
 * Report cards and term books as PDF documents. The result carries the file (name, content type,
 * size, bytes); the documented profile does not show it, but the document is issued and stored all
 * the same. A student, record, class or term that does not fit together, or that is outside the
 * caller's scope, gives an empty result.
 */
export const generateReport = defineOperation('GenerateReport', {
  policy: {
    group: 'documents',
    audit: 'shown',
    effect: 'reads',
    bounds: { studentClass: IDENTIFIER },
    records: { studentId: 'student' },
  },
  decode: ({ studentId, studentClass }) => ({ studentId, classId: identifier(studentClass) }),
  run: async ({ studentId, classId }, { store, today, visibility, touched }) => {
    const termId = await currentTermId(store, today);
    if (classId === undefined || termId === undefined || !(await visibility.student(studentId))) return undefined;
    const studentRecordId = await studentRecordForTerm(store, studentId, termId);
    if (studentRecordId === undefined) return undefined;
    touched('student', studentId);
    touched('class', classId);
    return issueDocument(store, 'report-card', { studentRecordId, classId, termId }, today);
  },
});

export const getBookPdfByTerm = defineOperation('GetBookPdfByTerm', {
  policy: {
    group: 'documents',
    audit: 'shown',
    effect: 'reads',
    bounds: { termId: IDENTIFIER, srid: IDENTIFIER, classId: IDENTIFIER },
    records: { srid: 'enrolment' },
  },
  decode: ({ termId, srid, classId }) => ({
    termId: identifier(termId),
    studentRecordId: identifier(srid),
    classId: identifier(classId),
  }),
  run: async ({ termId, studentRecordId, classId }, { store, today, visibility, touched }) => {
    if (termId === undefined || studentRecordId === undefined || classId === undefined) return undefined;
    const enrolment = await visibility.enrolment(studentRecordId);
    if (!enrolment) return undefined;
    touched('student', enrolment.studentId);
    touched('class', classId);
    return issueDocument(store, 'term-book', { studentRecordId, classId, termId }, today);
  },
});
