import { type Column12, type ReadColumn, requiredColumns } from './oneroster-columns';
import type { ImportContext } from './import-context';
import { clip, type FieldReader } from './fields';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
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
  const v12 = context.version === '1.2';
  const { book } = context;
  let batch: MarkRow[] = [];
  let taken = 0;
  const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));
  await forEachRow(
    context,
    'results.csv',
    requiredColumns('results', context.version),
    (reader) => {
      const status = reader.raw('status').toLowerCase();
      const start = rowStart(context, reader, 'marks', 'metadata.contractId');
      if (!start) {
        const sourcedId = reader.raw('sourcedId');
        if (status === 'tobedeleted' && context.mode === 'delta' && reader.ok) {
          batch.push({
            line: reader.line,
            sourcedId,
            pinnedId: null,
            assessmentId: 0,
            studentRecordId: 0,
            score: 0,
            modifiedAt: null,
            deleted: true,
            kept: null,
          });
        }
        return;
      }
      const lineItem = reader.required('lineItemSourcedId');
      const studentId = reader.required('studentSourcedId');
      const scoreStatus = reader.oneOf('scoreStatus', SCORE_STATUSES, true);
      const numeric = reader.number('score', !v12);
      // Read whether used or not, so that a 1.2 file's columns are not listed as unread.
      const text = v12 ? reader.raw('textScore') : '';
      const ownScale = v12 ? reader.raw('scoreScaleSourcedId') : '';
      if (ownScale && !scales.has(ownScale)) {
        reader.fail(
          'scoreScaleSourcedId',
          'unknown-reference',
          `scoreScaleSourcedId "${clip(ownScale)}" names no scoreScale`,
        );
      }
      const textScore = numeric === undefined && reader.ok ? text : '';
      if (v12) for (const flag of RESULT_FLAGS) reader.boolean(flag, false);
      reader.date('scoreDate', true);
      const assessment = lineItem && book.resolve(reader, 'lineItemSourcedId', ['assessments'], lineItem, 'lineItem');
      // A result of another school's line item (--school) is left out with it; in a delta its
      // student is no user the store holds, which is no problem of this school's.
      const ofOtherSchool = !assessment && reader.quietlyInvalid === context.school.leftOut;
      const student =
        studentId && !ofOtherSchool && book.resolve(reader, 'studentSourcedId', ['students'], studentId, 'student');
      const record = assessment && student ? recordOf(student.id, idOf(assessment.row?.class_id)) : undefined;
      if (assessment && student && record === undefined && !book.leftOutFor(reader, 'student_records')) {
        reader.fail(
          'studentSourcedId',
          'unknown-reference',
          `student "${studentId}" is not enrolled in the class of lineItem "${lineItem}"`,
        );
      }
      const score =
        numeric ??
        (textScore ? scoreOfText(reader, textScore, scales.get(ownScale) ?? scaleOf.get(lineItem ?? '')) : undefined);
      if (v12 && numeric === undefined && !textScore && reader.ok && !UNSCORED.has(scoreStatus ?? '')) {
        reader.fail('score', 'missing-value', `a result "${scoreStatus}" needs a score or a textScore`);
      }
      // A result with no mark (1.2: not submitted, or a text score no scale maps) is kept whole,
      // to be given back as a row of its own.
      if (reader.ok && assessment && record !== undefined && score === undefined)
        context.kept.keepUnusedFields('results.csv', start.sourcedId, Object.fromEntries(reader.writtenFields()));
      if (!reader.ok || !assessment || record === undefined || score === undefined) return;
      batch.push({
        line: reader.line,
        sourcedId: start.sourcedId,
        pinnedId: start.pinnedId ?? null,
        assessmentId: assessment.id,
        studentRecordId: record,
        score,
        modifiedAt: start.modifiedAt ?? null,
        deleted: false,
        kept: keptResultFields(reader, assessment.row?.held_on),
      });
      taken += 1;
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
