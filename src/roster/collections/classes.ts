import type { BundleReading } from '../bundle-reading';
import { gradeLevelByCode, type PendingSections } from '../class-files';
import type { FieldReader } from '../fields';
import type { ImportContext } from '../import-context';
import { checkOrg, ofOtherSchool } from '../org-references';
import { assignIds, type BundleFile, forEachRow, rowStart, takeRow } from '../read-file';
import type { Entry } from '../roster-book';
import type { SchoolSnapshot } from '../school-snapshot';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  type StoredRowOf,
  schoolSourcedId,
  storedById,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * classes.csv: each class (a homeroom) and each subject it takes (a scheduled class, the store's
 * class section, whose homeroom export names in metadata.homeroomSourcedId). A homeroom class is
 * a class section (ClassID): its grade level from `grades`, its section from classCode. A
 * scheduled class is a subject taken by a class section: its section is
 * metadata.homeroomSourcedId, or else the one homeroom its students are enrolled in, found once
 * enrollments are read (class-sections.ts).
 */
export const CLASSES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'grades',
  'courseSourcedId',
  'classCode',
  'classType',
  'location',
  'schoolSourcedId',
  'termSourcedIds',
  'subjects',
  'subjectCodes',
  'periods',
] as const;

type Column = (typeof CLASSES_COLUMNS)[number];

/** A homeroom's course: the first subject it takes (any subject for one that takes none). */
function firstSubjects(school: SchoolSnapshot): (classId: number) => unknown {
  const first = new Map<number, unknown>();
  for (const section of storedRows(school, 'class_subjects')) {
    if (!first.has(Number(section.class_id))) first.set(Number(section.class_id), section.subject_id);
  }
  const anySubject = storedRows(school, 'subjects')[0]?.id;
  return (classId) => first.get(classId) ?? anySubject;
}

export const classes = {
  name: 'classes',
  service: 'rostering',
  columns: CLASSES_COLUMNS,
  required: ['sourcedId', 'title', 'courseSourcedId', 'classType', 'schoolSourcedId', 'termSourcedIds'],
  import: { fills: ['classes', 'class_subjects'], read: readClasses },
  export: {
    reads: { whole: ['classes', 'class_subjects', 'subjects', 'grade_levels', 'academic_years', 'schools'] },
    header: [...CLASSES_COLUMNS, 'metadata.nameEn', 'metadata.homeroomSourcedId', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const schoolSourcedIdOf = schoolSourcedId(school);
      const gradeOf = (klass: StoredRowOf<'classes'> | undefined) => school.ref('grade_levels', klass?.grade_level_id);
      const subjectOf = firstSubjects(school);
      for (const row of storedRows(school, 'classes')) {
        yield {
          title: row.name_ar,
          grades: gradeOf(row),
          courseSourcedId: school.ref('subjects', subjectOf(row.id)),
          classCode: row.section,
          classType: 'homeroom',
          schoolSourcedId: schoolSourcedIdOf,
          termSourcedIds: school.ref('academic_years', row.academic_year_id),
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
          ...commonCells(school, 'classes', row),
        };
      }
      const homerooms = storedById(school, 'classes');
      const subjects = storedById(school, 'subjects');
      for (const row of storedRows(school, 'class_subjects')) {
        const klass = homerooms.get(Number(row.class_id));
        const subject = subjects.get(Number(row.subject_id));
        yield {
          title: `${subject?.name_ar ?? ''} - ${klass?.name_ar ?? ''}`,
          grades: gradeOf(klass),
          courseSourcedId: school.ref('subjects', row.subject_id),
          classType: 'scheduled',
          schoolSourcedId: schoolSourcedIdOf,
          termSourcedIds: school.ref('academic_years', klass?.academic_year_id),
          'metadata.nameEn': `${subject?.name_en ?? ''} - ${klass?.name_en ?? ''}`,
          'metadata.homeroomSourcedId': school.ref('classes', row.class_id),
          'metadata.contractId': row.id,
          ...commonCells(school, 'class_subjects', row),
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['title', 'title', 'text'],
    ['grades', 'grades', 'list'],
    ['courseSourcedId', 'course', 'ref'],
    ['classCode', 'classCode', 'text'],
    ['classType', 'classType', 'text'],
    ['location', 'location', 'text'],
    ['schoolSourcedId', 'school', 'ref'],
    ['termSourcedIds', 'terms', 'refs'],
    ['subjects', 'subjects', 'list'],
    ['subjectCodes', 'subjectCodes', 'list'],
    ['periods', 'periods', 'list'],
  ]),
} as const satisfies OneRosterCollection<'classes', Column>;

async function readClasses(reading: BundleReading, file: BundleFile): Promise<void> {
  const { context } = reading;
  const pending: PendingSections = new Map();
  const homeroomCourses = new Map<Entry, Entry>();
  const { book } = context;
  await forEachRow<Column | MetadataColumn>(context, file, requiredIn(classes, context.version), (reader) => {
    const start = rowStart(context, reader, ['classes', 'class_subjects'], 'metadata.contractId');
    const tables = ['classes', 'class_subjects'] as const;
    if (!start || ofOtherSchool(context, reader, 'schoolSourcedId', tables, start.sourcedId)) return;
    const type = reader.oneOf('classType', ['homeroom', 'scheduled'], true);
    const title = reader.required('title') ?? '';
    const course = reader.required('courseSourcedId');
    const subject = course && book.resolve(reader, 'courseSourcedId', ['subjects'], course, 'course');
    checkOrg(context, reader, 'schoolSourcedId');
    const terms = reader.list('termSourcedIds');
    if (terms.length === 0) reader.fail('termSourcedIds', 'missing-value', 'termSourcedIds is required');
    const session =
      terms[0] && book.resolve(reader, 'termSourcedIds', ['academic_years', 'terms'], terms[0], 'session');
    const year = session && (session.table === 'terms' ? (session.row?.academic_year_id as Entry) : session);
    if (type === 'scheduled') {
      const stored = book.find('class_subjects', start.sourcedId);
      const storedSection = stored?.file === '(store)' ? Number(stored.row?.class_id) : undefined;
      const entry = takeRow(context, reader, 'class_subjects', start, { class_id: undefined, subject_id: subject });
      if (entry) {
        pending.set(entry, {
          storedSection,
          line: reader.line,
          homeroom: reader.raw('metadata.homeroomSourcedId'),
          code: reader.raw('classCode'),
          grade: reader.list('grades')[0] ?? '',
          title,
          year: year || undefined,
        });
      }
      return;
    }
    const grade = gradeLevelOf(context, reader);
    const homeroom = takeRow(context, reader, 'classes', start, {
      academic_year_id: year,
      grade_level_id: grade,
      section: reader.text('classCode') || title,
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
    if (homeroom && subject) homeroomCourses.set(homeroom, subject);
  });
  assignIds(context, 'grade_levels');
  assignIds(context, 'classes');
  reading.classes = { pending, homeroomCourses };
}

/**
 * The grade level a homeroom's first grade names: from gradeLevels.csv, else a standard grade's own
 * names. A class without grades is of an unknown grade level: CEDS's Ungraded (a warning).
 */
function gradeLevelOf(context: ImportContext, reader: FieldReader): Entry | undefined {
  const code = reader.list('grades')[0];
  if (code === undefined) {
    reader.warn('grades', 'grade-unknown', 'the class has no grades: its grade level is UG (Ungraded)');
    return gradeLevelByCode(context, reader, 'UG');
  }
  return gradeLevelByCode(context, reader, code);
}
