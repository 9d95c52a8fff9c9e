import {
  commonCells,
  type OneRosterCollection,
  type RowsOf,
  schoolSourcedId,
  sectionRef,
  sectionsOf,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * enrollments.csv: each student's record in a class and each teacher's assignment to a class
 * section (import: enrollment-file.ts, readEnrollments).
 */
export const ENROLLMENTS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'classSourcedId',
  'schoolSourcedId',
  'userSourcedId',
  'role',
  'primary',
  'beginDate',
  'endDate',
] as const;

type Column = (typeof ENROLLMENTS_COLUMNS)[number];

export const enrollments = {
  name: 'enrollments',
  service: 'rostering',
  columns: ENROLLMENTS_COLUMNS,
  required: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
  export: {
    header: [...ENROLLMENTS_COLUMNS, 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const orgSourcedId = schoolSourcedId(school);
      // A record without a class section has no class to be enrolled in: it is not written (the
      // scheduled-class enrolments it was inferred from are not kept; see docs/import.md).
      for (const row of storedRows(school, 'student_records')) {
        if (row.class_id === null) continue;
        yield {
          ...commonCells(school, 'student_records', row),
          classSourcedId: school.ref('classes', row.class_id),
          schoolSourcedId: orgSourcedId,
          userSourcedId: school.ref('students', row.student_id),
          role: 'student',
          primary: 'false',
          beginDate: row.enrolled_on,
          'metadata.contractId': row.id,
        };
      }
      const sections = sectionsOf(school);
      for (const row of storedRows(school, 'teacher_assignments')) {
        yield {
          ...commonCells(school, 'teacher_assignments', row),
          classSourcedId: sectionRef(school, sections, row),
          schoolSourcedId: orgSourcedId,
          userSourcedId: school.ref('teachers', row.teacher_id),
          role: 'teacher',
          primary: 'false',
          'metadata.contractId': row.id,
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['classSourcedId', 'class', 'ref'],
    ['schoolSourcedId', 'school', 'ref'],
    ['userSourcedId', 'user', 'ref'],
    ['role', 'role', 'text'],
    ['primary', 'primary', 'text'],
    ['beginDate', 'beginDate', 'date'],
    ['endDate', 'endDate', 'date'],
  ]),
} as const satisfies OneRosterCollection<'enrollments', Column>;
