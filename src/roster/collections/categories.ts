import type { BundleReading } from '../bundle-reading';
import { assignIds, type BundleFile, forEachRow, rowStart, takeRow } from '../read-file';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/** categories.csv: the kinds of assessment. */
export const CATEGORIES_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'title'] as const;

type Column = (typeof CATEGORIES_COLUMNS)[number];

/** The column 1.2 adds: a category's weight, a share of the final grade. */
type ReadColumn = Column | 'weight' | MetadataColumn;

async function readCategories({ context }: BundleReading, file: BundleFile): Promise<void> {
  await forEachRow<ReadColumn>(context, file, requiredIn(categories, context.version), (reader) => {
    const start = rowStart(context, reader, 'assessment_categories', 'metadata.contractId');
    if (!start) return;
    const title = reader.required('title') ?? '';
    // 1.2's weight (a share of the final grade): checked, not kept, as the service computes no final grade.
    reader.number('weight', false, { min: 0 });
    takeRow(context, reader, 'assessment_categories', start, {
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
  });
  assignIds(context, 'assessment_categories');
}

export const categories = {
  name: 'categories',
  service: 'gradebook',
  columns: CATEGORIES_COLUMNS,
  required: ['sourcedId', 'title'],
  import: { fills: ['assessment_categories'], read: readCategories },
  export: {
    reads: { whole: ['assessment_categories'] },
    header: [...CATEGORIES_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'assessment_categories')) {
        yield {
          title: row.name_ar,
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
          ...commonCells(school, 'assessment_categories', row),
        };
      }
    },
  },
  fromRest: byColumns<Column | 'weight'>([
    ['title', 'title', 'text'],
    ['weight', 'weight', 'text', 'present'],
  ]),
} as const satisfies OneRosterCollection<'categories', Column>;
