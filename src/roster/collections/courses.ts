import type { BundleReading } from '../bundle-reading';
import { checkOrg, ofOtherSchool } from '../org-references';
import { assignIds, type BundleFile, forEachRow, rowStart, takeRow } from '../read-file';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  schoolSourcedId,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/** courses.csv: the subjects. */
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

async function readCourses({ context }: BundleReading, file: BundleFile): Promise<void> {
  await forEachRow<Column | MetadataColumn>(context, file, requiredIn(courses, context.version), (reader) => {
    const start = rowStart(context, reader, 'subjects', 'metadata.contractId');
    if (!start || ofOtherSchool(context, reader, 'orgSourcedId', ['subjects'], start.sourcedId)) return;
    const title = reader.required('title') ?? '';
    checkOrg(context, reader, 'orgSourcedId');
    takeRow(context, reader, 'subjects', start, {
      code: reader.text('courseCode'),
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
  });
  assignIds(context, 'subjects');
}

export const courses = {
  name: 'courses',
  service: 'rostering',
  columns: COURSES_COLUMNS,
  required: ['sourcedId', 'title', 'orgSourcedId'],
  import: { fills: ['subjects'], read: readCourses },
  export: {
    reads: { whole: ['subjects', 'schools'] },
    header: [...COURSES_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const orgSourcedId = schoolSourcedId(school);
      for (const row of storedRows(school, 'subjects')) {
        yield {
          title: row.name_ar,
          courseCode: row.code,
          orgSourcedId,
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
          ...commonCells(school, 'subjects', row),
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
