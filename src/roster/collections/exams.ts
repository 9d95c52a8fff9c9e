import { type RowsOf, storedRows } from './collection';
import { type FilledRow, named, OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells } from './own-file';

/** exams.csv: a term's exam period, whose slots examSlots.csv gives. */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'termSourcedId', 'name', 'nameEn'] as const;

type Column = (typeof COLUMNS)[number];

export const exams = {
  name: 'exams',
  table: 'exams',
  columns: COLUMNS,
  required: ['sourcedId', 'termSourcedId', 'name'],
  read: (reader, resolve): FilledRow<'exams'> => ({
    term_id: resolve('termSourcedId', ['terms'], 'term'),
    ...named(reader),
  }),
  export: {
    reads: { whole: ['exams', 'terms'] },
    header: COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'exams')) {
        yield {
          termSourcedId: school.ref('terms', row.term_id),
          name: row.name_ar,
          nameEn: row.name_en,
          ...ownCells(school, 'exams', row),
        };
      }
    },
  },
} as const satisfies OwnFileCollection<'exams', 'exams', Column>;
