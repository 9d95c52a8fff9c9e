import { type RowsOf, storedRows } from './collection';
import { OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells } from './own-file';

/** gradeLevels.csv: the grade levels, read before the classes that name them (class-files.ts, readGradeLevels). */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'ordinal', 'name', 'nameEn'] as const;

type Column = (typeof COLUMNS)[number];

export const gradeLevels = {
  name: 'gradeLevels',
  table: 'grade_levels',
  columns: COLUMNS,
  required: ['sourcedId', 'ordinal', 'name'],
  export: {
    header: COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'grade_levels'))
        yield {
          ...ownCells(school, 'grade_levels', row),
          ordinal: row.ordinal,
          name: row.name_ar,
          nameEn: row.name_en,
        };
    },
  },
} as const satisfies OwnFileCollection<'gradeLevels', 'grade_levels', Column>;
