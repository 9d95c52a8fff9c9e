import type { BundleReading } from '../bundle-reading';
import { checkOrg } from '../org-references';
import { type BundleFile, forEachRow, rowStart } from '../read-file';
import { type MetadataColumn, type OneRoster12Collection, requiredIn } from './collection';

/**
 * scoreScales.csv (OneRoster 1.2 CSV binding, the scoreScales.csv table): a scale that turns a
 * text score (`A`, `Merit`) into a number. `scoreScaleValue` lists its entries as `{LHS:RHS}`
 * pairs, the text on the left and its value on the right (`{A:90},{B:80}`). The store keeps
 * numbers, so a scale is read only to give a result with a text score alone its number; it is
 * not stored. An entry whose right side is no number maps nothing. Read in a 1.2 bundle alone.
 */
export const SCORE_SCALES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'type',
  'orgSourcedId',
  'courseSourcedId',
  'classSourcedId',
  'scoreScaleValue',
] as const;

type Column = (typeof SCORE_SCALES_COLUMNS)[number];

/** A column vendors write that the binding does not name: a score scale's school as `schoolSourcedId`. */
type ReadColumn = Column | 'schoolSourcedId' | MetadataColumn;

async function readScoreScales(reading: BundleReading, file: BundleFile): Promise<void> {
  const { context } = reading;
  if (context.version !== '1.2') return;
  const scales = new Map<string, Map<string, number>>();
  await forEachRow<ReadColumn>(context, file, requiredIn(scoreScales, context.version), (reader) => {
    const start = rowStart(context, reader, [], 'metadata.contractId');
    if (!start) return;
    reader.required('title');
    reader.text('type');
    for (const column of ['orgSourcedId', 'schoolSourcedId'] as const)
      if (reader.raw(column)) checkOrg(context, reader, column);
    reader.raw('courseSourcedId');
    reader.raw('classSourcedId');
    const values = scaleValues(reader.raw('scoreScaleValue'));
    if (values === undefined) {
      reader.fail('scoreScaleValue', 'unknown-value', 'scoreScaleValue is not a list of {text:value} pairs');
    }
    if (reader.ok && values) scales.set(start.sourcedId, values);
  });
  reading.scales = scales;
}

/** `{A:90},{B:80}` → A → 90, B → 80; undefined when the field is not such a list. */
export function scaleValues(field: string): Map<string, number> | undefined {
  const values = new Map<string, number>();
  const pairs = field.match(/\{[^{}]*\}/g) ?? [];
  if (pairs.length === 0 || field.replace(/\{[^{}]*\}/g, '').replace(/[\s,]/g, '') !== '') return undefined;
  for (const pair of pairs) {
    const inner = pair.slice(1, -1);
    const colon = inner.lastIndexOf(':');
    if (colon < 0) return undefined;
    const text = inner.slice(0, colon).trim();
    const value = inner.slice(colon + 1).trim();
    if (text !== '' && /^[-+]?(\d+\.?\d*|\.\d+)$/.test(value) && !values.has(text)) values.set(text, Number(value));
  }
  return values;
}

export const scoreScales = {
  name: 'scoreScales',
  columns: SCORE_SCALES_COLUMNS,
  required: ['sourcedId', 'title', 'scoreScaleValue'],
  import: { fills: [], read: readScoreScales },
} as const satisfies OneRoster12Collection<'scoreScales', Column>;
