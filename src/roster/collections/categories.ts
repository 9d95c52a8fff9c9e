import { commonCells, type OneRosterCollection, type RowsOf, storedRows } from './collection';
import { byColumns } from './rest-cells';

/** categories.csv: the kinds of assessment (import: gradebook-files.ts, readCategories). */
export const CATEGORIES_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'title'] as const;

type Column = (typeof CATEGORIES_COLUMNS)[number];

export const categories = {
  name: 'categories',
  service: 'gradebook',
  columns: CATEGORIES_COLUMNS,
  required: ['sourcedId', 'title'],
  export: {
    header: [...CATEGORIES_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'assessment_categories')) {
        yield {
          ...commonCells(school, 'assessment_categories', row),
          title: row.name_ar,
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
        };
      }
    },
  },
  fromRest: byColumns<Column | 'weight'>([
    ['title', 'title', 'text'],
    ['weight', 'weight', 'text', 'present'],
  ]),
} as const satisfies OneRosterCollection<'categories', Column>;
