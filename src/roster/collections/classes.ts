import type { SchoolSnapshot } from '../school-snapshot';
import {
  commonCells,
  type OneRosterCollection,
  type RowsOf,
  type StoredRowOf,
  schoolSourcedId,
  storedById,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * classes.csv: each class (a homeroom) and each subject it takes (a scheduled class, the store's
 * class section, whose homeroom export names in metadata.homeroomSourcedId). Import:
 * class-files.ts, readClasses, and class-sections.ts.
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
  export: {
    header: [...CLASSES_COLUMNS, 'metadata.nameEn', 'metadata.homeroomSourcedId', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const schoolSourcedIdOf = schoolSourcedId(school);
      const gradeOf = (klass: StoredRowOf<'classes'> | undefined) => school.ref('grade_levels', klass?.grade_level_id);
      const subjectOf = firstSubjects(school);
      for (const row of storedRows(school, 'classes')) {
        yield {
          ...commonCells(school, 'classes', row),
          title: row.name_ar,
          grades: gradeOf(row),
          courseSourcedId: school.ref('subjects', subjectOf(row.id)),
          classCode: row.section,
          classType: 'homeroom',
          schoolSourcedId: schoolSourcedIdOf,
          termSourcedIds: school.ref('academic_years', row.academic_year_id),
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
        };
      }
      const homerooms = storedById(school, 'classes');
      const subjects = storedById(school, 'subjects');
      for (const row of storedRows(school, 'class_subjects')) {
        const klass = homerooms.get(Number(row.class_id));
        const subject = subjects.get(Number(row.subject_id));
        yield {
          ...commonCells(school, 'class_subjects', row),
          title: `${subject?.name_ar ?? ''} - ${klass?.name_ar ?? ''}`,
          grades: gradeOf(klass),
          courseSourcedId: school.ref('subjects', row.subject_id),
          classType: 'scheduled',
          schoolSourcedId: schoolSourcedIdOf,
          termSourcedIds: school.ref('academic_years', klass?.academic_year_id),
          'metadata.nameEn': `${subject?.name_en ?? ''} - ${klass?.name_en ?? ''}`,
          'metadata.homeroomSourcedId': school.ref('classes', row.class_id),
          'metadata.contractId': row.id,
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
