import type { BundleReading } from '../bundle-reading';
import { type BundleFile, forEachRow, rowStart, takeRow } from '../read-file';
import { type RowsOf, storedRows } from './collection';
import { OWN_COMMON_COLUMNS, type OwnFileCollection, ownCells } from './own-file';

/**
 * gradeLevels.csv: the grade levels, read before the classes that name them. Its levels are given
 * their ids with the standard levels the classes name (classes.ts), so it has a reader of its own.
 */
const COLUMNS = [...OWN_COMMON_COLUMNS, 'ordinal', 'name', 'nameEn'] as const;

type Column = (typeof COLUMNS)[number];

async function readGradeLevels({ context }: BundleReading, file: BundleFile): Promise<void> {
  await forEachRow<Column>(context, file, gradeLevels.required, (reader) => {
    const start = rowStart(context, reader, 'grade_levels', 'contractId');
    if (!start) return;
    const name = reader.required('name') ?? '';
    const ordinal = reader.integer('ordinal', true, { min: -100, max: 100 });
    takeRow(
      context,
      reader,
      'grade_levels',
      start,
      { ordinal, name_ar: name, name_en: reader.text('nameEn') || name },
      undefined,
      'contractId',
    );
  });
}

export const gradeLevels = {
  name: 'gradeLevels',
  table: 'grade_levels',
  columns: COLUMNS,
  required: ['sourcedId', 'ordinal', 'name'],
  import: { fills: ['grade_levels'], read: readGradeLevels },
  export: {
    reads: { whole: ['grade_levels'] },
    header: COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'grade_levels'))
        yield {
          ordinal: row.ordinal,
          name: row.name_ar,
          nameEn: row.name_en,
          ...ownCells(school, 'grade_levels', row),
        };
    },
  },
} as const satisfies OwnFileCollection<'gradeLevels', 'grade_levels', Column>;
