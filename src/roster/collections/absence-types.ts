import { type RowsOf, storedRows } from './collection';
import { type FilledRow, named, OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells } from './own-file';

/** absenceTypes.csv: the kinds of absence attendance names. */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'name', 'nameEn'] as const;

type Column = (typeof COLUMNS)[number];

export const absenceTypes = {
  name: 'absenceTypes',
  table: 'absence_types',
  columns: COLUMNS,
  required: ['sourcedId', 'name'],
  read: (reader): FilledRow<'absence_types'> => named(reader),
  export: {
    reads: { whole: ['absence_types'] },
    header: COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'absence_types'))
        yield { name: row.name_ar, nameEn: row.name_en, ...ownCells(school, 'absence_types', row) };
    },
  },
} as const satisfies OwnFileCollection<'absenceTypes', 'absence_types', Column>;
