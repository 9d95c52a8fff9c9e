import { type Column12, type ReadColumn, requiredColumns } from './oneroster-columns';
import type { ImportContext } from './import-context';
import { clip, type FieldReader } from './fields';
import { assignIds, forEachRow, type RowStart, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';
import type { ScoreScales } from './score-scales';
import type { MarkRow } from '../store/roster/staged-marks';

/**
 * categories.csv -> assessment categories; lineItems.csv -> assessments (of the subject and class
 * section of their scheduled class, in the term of their grading period, held on their dueDate,
 * scored out of resultValueMax); results.csv -> marks, the student's score in the class section's
 * record. Results are the bulk of a bundle (millions of rows): they are checked here and handed on
 * in batches, never held whole. A 1.2 bundle's lineItems may name their session in a list and a
 * score scale (score-scales.ts), and its results may carry a text score instead of a number.
 */

export async function readCategories(context: ImportContext): Promise<void> {
  await forEachRow(context, 'categories.csv', requiredColumns('categories', context.version), (reader) => {
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

/** Reads lineItems.csv; returns, per lineItem of a 1.2 bundle with `scoreScaleSourcedId`, its scale. */
export async function readLineItems(
  context: ImportContext,
  scales: ScoreScales = new Map(),
): Promise<Map<string, ReadonlyMap<string, number>>> {
  const { book } = context;
  const scaleOf = new Map<string, ReadonlyMap<string, number>>();
  const v12 = context.version === '1.2';
  await forEachRow(context, 'lineItems.csv', requiredColumns('lineItems', context.version), (reader) => {
    const start = rowStart(context, reader, 'assessments', 'metadata.contractId');
    if (!start) return;
    const title = reader.required('title') ?? '';
    reader.date('assignDate', true);
    const dueDate = reader.date('dueDate', true);
    const reference = (column: ReadColumn<'lineItems'>, tables: Parameters<typeof book.resolve>[2], what: string) => {
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
  return scaleOf;
}

/** What the store holds of a result, or export writes for it: not kept (lower-cased header names). */
const RESULT_FROM_STORE = new Set([
  'sourcedid',
  'status',
  'datelastmodified',
  'lineitemsourcedid',
  'studentsourcedid',
  'score',
  'metadata.contractid',
]);

/**
 * A result's fields that the store does not hold, to be given back by export: a comment, 1.2
 * columns such as textScore, a scoreStatus other than "fully graded" and a scoreDate other than
 * its lineItem's dueDate (which export writes for them). Most results have none, and keep nothing.
 */
function keptResultFields(reader: FieldReader, dueDate: unknown): string | null {
  const fields = reader.writtenFieldsBut(
    (column, value) =>
      RESULT_FROM_STORE.has(column) ||
      (column === 'scorestatus' && value === 'fully graded') ||
      (column === 'scoredate' && value === dueDate),
  );
  return fields ? JSON.stringify(fields) : null;
}

/** 1.2's flags of a result: checked, not kept by the store (they are given back). */
const RESULT_FLAGS = ['inProgress', 'incomplete', 'late', 'missing'] as const satisfies readonly Column12<'results'>[];

const SCORE_STATUSES = ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'] as const;
/** 1.2 results whose score may be empty: nothing was graded, so no mark is stored and nothing is wrong. */
const UNSCORED = new Set<string>(['exempt', 'not submitted', 'submitted']);
const BATCH = 2000;

/** What a result's mark is worked out from besides its row. */
interface ResultLookups {
  readonly context: ImportContext;
  /** A student's enrolment record in a class (see the import's recordFinder). */
  readonly recordOf: (studentId: number, classId: number) => number | undefined;
  /** Per lineItem, the scale its text scores are read on. */
  readonly scaleOf: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly scales: ScoreScales;
}

/**
 * Reads results.csv, handing checked rows to `stage` in batches, as the store stages them: their
 * references turned into ids, a delta's status=tobedeleted as a row that deletes its mark. Returns
 * how many rows were taken.
 */
export async function readResults(
  context: ImportContext,
  recordOf: (studentId: number, classId: number) => number | undefined,
  stage: (marks: MarkRow[]) => Promise<void>,
  scaleOf: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(),
  scales: ScoreScales = new Map(),
): Promise<number> {
  const lookups: ResultLookups = { context, recordOf, scaleOf, scales };
  let batch: MarkRow[] = [];
  let taken = 0;
  await forEachRow(
    context,
    'results.csv',
    requiredColumns('results', context.version),
    (reader) => {
      const mark = markOfRow(lookups, reader);
      if (!mark) return;
      batch.push(mark);
      if (!mark.deleted) taken += 1;
    },
    {
      every: BATCH,
      flush: async () => {
        const full = batch;
        batch = [];
        if (full.length > 0) await stage(full);
      },
    },
  );
  return taken;
}

/** A row of results.csv as the mark it stages: a delta's deletion, a mark, or none (a wrong row, or no mark). */
function markOfRow(lookups: ResultLookups, reader: FieldReader): MarkRow | undefined {
  const { context } = lookups;
  const status = reader.raw('status').toLowerCase();
  const start = rowStart(context, reader, 'marks', 'metadata.contractId');
  if (start) return markOf(lookups, reader, start);
  if (status === 'tobedeleted' && context.mode === 'delta' && reader.ok) return deletedMark(reader);
  return undefined;
}

/** A delta's result with status=tobedeleted: a staged row that deletes the mark of its sourcedId. */
function deletedMark(reader: FieldReader): MarkRow {
  return {
    line: reader.line,
    sourcedId: reader.raw('sourcedId'),
    pinnedId: null,
    assessmentId: 0,
    studentRecordId: 0,
    score: 0,
    modifiedAt: null,
    deleted: true,
    kept: null,
  };
}

/** A result's mark, once its fields are checked; none when the row is wrong or gives no mark. */
function markOf(lookups: ResultLookups, reader: FieldReader, start: RowStart): MarkRow | undefined {
  const lineItem = reader.required('lineItemSourcedId');
  const studentId = reader.required('studentSourcedId');
  const given = readScoreFields(lookups, reader);
  const { assessment, record } = enrolmentOfResult(lookups, reader, lineItem, studentId);
  const score = scoreOfResult(lookups, reader, given, lineItem);
  // A result with no mark (1.2: not submitted, or a text score no scale maps) is kept whole,
  // to be given back as a row of its own.
  if (reader.ok && assessment && record !== undefined && score === undefined)
    lookups.context.kept.keepUnusedFields('results.csv', start.sourcedId, Object.fromEntries(reader.writtenFields()));
  if (!reader.ok || !assessment || record === undefined || score === undefined) return undefined;
  return {
    line: reader.line,
    sourcedId: start.sourcedId,
    pinnedId: start.pinnedId ?? null,
    assessmentId: assessment.id,
    studentRecordId: record,
    score,
    modifiedAt: start.modifiedAt ?? null,
    deleted: false,
    kept: keptResultFields(reader, assessment.row?.held_on),
  };
}

/** A result's score as given: a number, or (1.2) a text on a scale, and its status. */
interface GivenScore {
  readonly scoreStatus: (typeof SCORE_STATUSES)[number] | undefined;
  readonly numeric: number | undefined;
  /** The textScore, when the result has no number. */
  readonly textScore: string;
  /** The result's own scoreScaleSourcedId (1.2). */
  readonly ownScale: string;
}

/** Checks a result's score fields, its 1.2 flags and its scoreDate. */
function readScoreFields(lookups: ResultLookups, reader: FieldReader): GivenScore {
  const v12 = lookups.context.version === '1.2';
  const scoreStatus = reader.oneOf('scoreStatus', SCORE_STATUSES, true);
  const numeric = reader.number('score', !v12);
  // Read whether used or not, so that a 1.2 file's columns are not listed as unread.
  const text = v12 ? reader.raw('textScore') : '';
  const ownScale = v12 ? reader.raw('scoreScaleSourcedId') : '';
  if (ownScale && !lookups.scales.has(ownScale)) {
    reader.fail(
      'scoreScaleSourcedId',
      'unknown-reference',
      `scoreScaleSourcedId "${clip(ownScale)}" names no scoreScale`,
    );
  }
  const textScore = numeric === undefined && reader.ok ? text : '';
  if (v12) for (const flag of RESULT_FLAGS) reader.boolean(flag, false);
  reader.date('scoreDate', true);
  return { scoreStatus, numeric, textScore, ownScale };
}

const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));

/** A result's lineItem and the enrolment record of its student in that lineItem's class. */
function enrolmentOfResult(
  lookups: ResultLookups,
  reader: FieldReader,
  lineItem: string | undefined,
  studentId: string | undefined,
): { assessment: Entry | undefined; record: number | undefined } {
  const { book, school } = lookups.context;
  const assessment =
    (lineItem && book.resolve(reader, 'lineItemSourcedId', ['assessments'], lineItem, 'lineItem')) || undefined;
  // A result of another school's line item (--school) is left out with it; in a delta its
  // student is no user the store holds, which is no problem of this school's.
  const ofOtherSchool = !assessment && reader.quietlyInvalid === school.leftOut;
  const student =
    studentId && !ofOtherSchool && book.resolve(reader, 'studentSourcedId', ['students'], studentId, 'student');
  const record = assessment && student ? lookups.recordOf(student.id, idOf(assessment.row?.class_id)) : undefined;
  if (assessment && student && record === undefined && !book.leftOutFor(reader, 'student_records')) {
    reader.fail(
      'studentSourcedId',
      'unknown-reference',
      `student "${studentId}" is not enrolled in the class of lineItem "${lineItem}"`,
    );
  }
  return { assessment, record };
}

/** The number a result stores; a 1.2 result without one is wrong unless its status says nothing was graded. */
function scoreOfResult(
  lookups: ResultLookups,
  reader: FieldReader,
  given: GivenScore,
  lineItem: string | undefined,
): number | undefined {
  const { numeric, textScore, ownScale, scoreStatus } = given;
  const scale = lookups.scales.get(ownScale) ?? lookups.scaleOf.get(lineItem ?? '');
  const score = numeric ?? (textScore ? scoreOfText(reader, textScore, scale) : undefined);
  if (
    lookups.context.version === '1.2' &&
    numeric === undefined &&
    !textScore &&
    reader.ok &&
    !UNSCORED.has(scoreStatus ?? '')
  ) {
    reader.fail('score', 'missing-value', `a result "${scoreStatus}" needs a score or a textScore`);
  }
  return score;
}

/**
 * The number a 1.2 result's text score stands for: on the scale its own `scoreScaleSourcedId`
 * names, else its lineItem's. A text the scale does not map (or no scale) is a warning at the
 * textScore field, and the result gives no mark: the store keeps numbers only.
 */
function scoreOfText(
  reader: FieldReader,
  textScore: string,
  scale: ReadonlyMap<string, number> | undefined,
): number | undefined {
  const value = scale?.get(textScore);
  if (value === undefined) {
    const where = scale ? 'its score scale does not map it' : 'its lineItem has no score scale';
    reader.warn('textScore', 'text-score-unmapped', `textScore "${clip(textScore)}": ${where}; no mark is stored`);
  }
  return value;
}
