import type { BundleReading } from '../bundle-reading';
import { clip } from '../fields';
import { assignIds, type BundleFile, forEachRow, rowStart, takeRow } from '../read-file';
import {
  commonCells,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  sectionRef,
  sectionsOf,
  storedRows,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * lineItems.csv: the assessments, each of the subject and class section of its scheduled class,
 * in the term of its grading period, held on its dueDate, scored out of resultValueMax. A 1.2
 * bundle's lineItems may name their session in a list and a score scale (score-scales.ts).
 */
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

/**
 * The columns 1.2 adds, and the one vendors write that the binding does not name: a lineItem's
 * one session in the singular (`academicSessionSourcedId`).
 */
type ReadColumn =
  | Column
  | 'gradingPeriodSourcedIds'
  | 'academicSessionSourcedIds'
  | 'scoreScaleSourcedId'
  | 'learningObjectiveSet'
  | 'academicSessionSourcedId'
  | MetadataColumn;

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
  import: { fills: ['assessments'], read: readLineItems },
  export: {
    reads: { whole: ['assessments', 'class_subjects', 'classes', 'assessment_categories', 'terms'] },
    header: [...LINE_ITEMS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      const sections = sectionsOf(school);
      for (const row of storedRows(school, 'assessments')) {
        yield {
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
          ...commonCells(school, 'assessments', row),
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

/**
 * Where a lineItem's term comes from. 1.1 has `gradingPeriodSourcedId`; 1.2 lists sessions in
 * `gradingPeriodSourcedIds` or `academicSessionSourcedIds` (vendors write either, singular or
 * plural): the first of the first column present is the term.
 */
const TERM_COLUMNS = [
  'gradingPeriodSourcedId',
  'gradingPeriodSourcedIds',
  'academicSessionSourcedId',
  'academicSessionSourcedIds',
] as const;

/** Reads lineItems.csv, and for the results, per lineItem of a 1.2 bundle with `scoreScaleSourcedId`, its scale. */
async function readLineItems(reading: BundleReading, file: BundleFile): Promise<void> {
  const { context, scales } = reading;
  const { book } = context;
  const scaleOf = new Map<string, ReadonlyMap<string, number>>();
  const v12 = context.version === '1.2';
  await forEachRow<ReadColumn>(context, file, requiredIn(lineItems, context.version), (reader) => {
    const start = rowStart(context, reader, 'assessments', 'metadata.contractId');
    if (!start) return;
    const title = reader.required('title') ?? '';
    reader.date('assignDate', true);
    const dueDate = reader.date('dueDate', true);
    const reference = (column: ReadColumn, tables: Parameters<typeof book.resolve>[2], what: string) => {
      const sourcedId = reader.required(column);
      return sourcedId ? book.resolve(reader, column, tables, sourcedId, what) : undefined;
    };
    const section = reference('classSourcedId', ['class_subjects', 'classes'], 'class');
    // OneRoster requires a category; a store that has assessments without one exports them with none.
    const categoryId = reader.raw('categorySourcedId');
    const category = categoryId
      ? book.resolve(reader, 'categorySourcedId', ['assessment_categories'], categoryId, 'category')
      : null;
    const termColumn =
      (v12 &&
        (TERM_COLUMNS.find((column) => reader.raw(column) !== '') ??
          TERM_COLUMNS.find((column) => reader.hasColumn(column)))) ||
      TERM_COLUMNS[0];
    const termId = reader.list(termColumn)[0];
    const term = termId
      ? book.resolve(reader, termColumn, ['terms', 'academic_years'], termId, 'grading period')
      : reader.fail(
          termColumn,
          'missing-value',
          `${v12 ? 'a grading period or academic session' : termColumn} is required`,
        );
    const scaleId = v12 ? reader.raw('scoreScaleSourcedId') : '';
    const scale = scaleId ? scales.get(scaleId) : undefined;
    if (scaleId && !scale) {
      reader.fail(
        'scoreScaleSourcedId',
        'unknown-reference',
        `scoreScaleSourcedId "${clip(scaleId)}" names no scoreScale`,
      );
    }
    const min = reader.number('resultValueMin', true);
    const max = reader.number('resultValueMax', true, { min: 0 });
    if (section?.table === 'classes') {
      reader.fail(
        'classSourcedId',
        'unknown-reference',
        'a lineItem belongs to a scheduled class (a subject), not a homeroom',
      );
    }
    if (term?.table === 'academic_years') {
      reader.fail(termColumn, 'unknown-reference', 'a lineItem belongs to a term or grading period, not a school year');
    }
    if (min !== undefined && max !== undefined && max <= min) {
      reader.fail('resultValueMax', 'bad-number', 'resultValueMax is not above resultValueMin');
    }
    if (scale && reader.ok) scaleOf.set(start.sourcedId, scale);
    takeRow(context, reader, 'assessments', start, {
      class_id: section?.row?.class_id,
      subject_id: section?.row?.subject_id,
      term_id: term,
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
      held_on: dueDate,
      max_score: max,
      category_id: category,
    });
  });
  assignIds(context, 'assessments');
  reading.scaleOf = scaleOf;
}
