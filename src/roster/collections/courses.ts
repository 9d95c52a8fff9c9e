import { commonCells, type OneRosterCollection, type RowsOf, schoolSourcedId, storedRows } from './collection';
import { byColumns } from './rest-cells';

/** courses.csv: the subjects (import: class-files.ts, readCourses). */
export const COURSES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'schoolYearSourcedId',
  'title',
  'courseCode',
  'grades',
  'orgSourcedId',
  'subjects',
  'subjectCodes',
] as const;

type Column = (typeof COURSES_COLUMNS)[number];

export const courses = {
  name: 'courses',
  service: 'rostering',
  columns: COURSES_COLUMNS,
  required: ['sourcedId', 'title', 'orgSourcedId'],
  export: {
    header: [...COURSES_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const orgSourcedId = schoolSourcedId(school);
      for (const row of storedRows(school, 'subjects')) {
        yield {
          ...commonCells(school, 'subjects', row),
          title: row.name_ar,
          courseCode: row.code,
          orgSourcedId,
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['schoolYearSourcedId', 'schoolYear', 'ref'],
    ['title', 'title', 'text'],
    ['courseCode', 'courseCode', 'text'],
    ['grades', 'grades', 'list'],
    ['orgSourcedId', 'org', 'ref'],
    ['subjects', 'subjects', 'list'],
    ['subjectCodes', 'subjectCodes', 'list'],
  ]),
} as const satisfies OneRosterCollection<'courses', Column>;
