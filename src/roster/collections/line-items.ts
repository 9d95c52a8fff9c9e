import { commonCells, type OneRosterCollection, type RowsOf, sectionRef, sectionsOf, storedRows } from './collection';
import { byColumns } from './rest-cells';

/** lineItems.csv: the assessments, each of a class section (import: gradebook-files.ts, readLineItems). */
export const LINE_ITEMS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'description',
  'assignDate',
  'dueDate',
  'classSourcedId',
  'categorySourcedId',
  'gradingPeriodSourcedId',
  'resultValueMin',
  'resultValueMax',
] as const;

type Column = (typeof LINE_ITEMS_COLUMNS)[number];

export const lineItems = {
  name: 'lineItems',
  service: 'gradebook',
  columns: LINE_ITEMS_COLUMNS,
  required: [
    'sourcedId',
    'title',
    'assignDate',
    'dueDate',
    'classSourcedId',
    'gradingPeriodSourcedId',
    'resultValueMin',
    'resultValueMax',
  ],
  notRequiredIn12: ['gradingPeriodSourcedId'],
  export: {
    header: [...LINE_ITEMS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const sections = sectionsOf(school);
      for (const row of storedRows(school, 'assessments')) {
        yield {
          ...commonCells(school, 'assessments', row),
          title: row.name_ar,
          description: '',
          assignDate: row.held_on,
          dueDate: row.held_on,
          classSourcedId: sectionRef(school, sections, row),
          categorySourcedId: school.ref('assessment_categories', row.category_id),
          gradingPeriodSourcedId: school.ref('terms', row.term_id),
          resultValueMin: 0,
          resultValueMax: row.max_score,
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
        };
      }
    },
  },
  fromRest: byColumns<Column | 'scoreScaleSourcedId'>([
    ['title', 'title', 'text'],
    ['description', 'description', 'text'],
    ['assignDate', 'assignDate', 'date'],
    ['dueDate', 'dueDate', 'date'],
    ['classSourcedId', 'class', 'ref'],
    ['categorySourcedId', 'category', 'ref'],
    ['gradingPeriodSourcedId', ['gradingPeriod', 'academicSession'], 'ref'],
    ['resultValueMin', 'resultValueMin', 'text'],
    ['resultValueMax', 'resultValueMax', 'text'],
    ['scoreScaleSourcedId', 'scoreScale', 'ref', 'present'],
  ]),
} as const satisfies OneRosterCollection<'lineItems', Column>;
