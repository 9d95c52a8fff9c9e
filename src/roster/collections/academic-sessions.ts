import type { RowsOf, StoredRowOf } from './collection';
import { commonCells, type OneRosterCollection, storedById, storedRows } from './collection';
import { byColumns } from './rest-cells';

/** academicSessions.csv: school years and terms (import: calendar-files.ts, readAcademicSessions). */
export const ACADEMIC_SESSIONS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'type',
  'startDate',
  'endDate',
  'parentSourcedId',
  'schoolYear',
] as const;

type Column = (typeof ACADEMIC_SESSIONS_COLUMNS)[number];

const endYear = (year: StoredRowOf<'academic_years'> | undefined) => String(year?.ends_on ?? '').slice(0, 4);

export const academicSessions = {
  name: 'academicSessions',
  service: 'rostering',
  columns: ACADEMIC_SESSIONS_COLUMNS,
  required: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  export: {
    header: [...ACADEMIC_SESSIONS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'academic_years')) {
        yield {
          ...commonCells(school, 'academic_years', row),
          title: row.name,
          type: 'schoolYear',
          startDate: row.starts_on,
          endDate: row.ends_on,
          schoolYear: endYear(row),
          'metadata.contractId': row.id,
        };
      }
      const years = storedById(school, 'academic_years');
      for (const row of storedRows(school, 'terms')) {
        yield {
          ...commonCells(school, 'terms', row),
          title: row.name_ar,
          type: 'term',
          startDate: row.starts_on,
          endDate: row.ends_on,
          parentSourcedId: school.ref('academic_years', row.academic_year_id),
          schoolYear: endYear(years.get(Number(row.academic_year_id))),
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['title', 'title', 'text'],
    ['type', 'type', 'text'],
    ['startDate', 'startDate', 'date'],
    ['endDate', 'endDate', 'date'],
    ['parentSourcedId', 'parent', 'ref'],
    ['schoolYear', 'schoolYear', 'text'],
  ]),
} as const satisfies OneRosterCollection<'academicSessions', Column>;
