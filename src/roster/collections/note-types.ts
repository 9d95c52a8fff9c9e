import { type RowsOf, storedRows } from './collection';
import { type FilledRow, named, OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells, trueOrFalse } from './own-file';

/** noteTypes.csv: the kinds of note written about a student, each positive or not. */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'name', 'nameEn', 'positive'] as const;

type Column = (typeof COLUMNS)[number];

export const noteTypes = {
  name: 'noteTypes',
  table: 'note_types',
  columns: COLUMNS,
  required: ['sourcedId', 'name', 'positive'],
  read: (reader): FilledRow<'note_types'> => ({
    ...named(reader),
    is_positive: reader.boolean('positive', true) ? 1 : 0,
  }),
  export: {
    reads: { whole: ['note_types'] },
    header: COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'note_types')) {
        yield {
          name: row.name_ar,
          nameEn: row.name_en,
          positive: trueOrFalse(row.is_positive),
          ...ownCells(school, 'note_types', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'noteTypes', 'note_types', Column>;
