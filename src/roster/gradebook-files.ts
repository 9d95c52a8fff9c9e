import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';

/**
 * categories.csv -> assessment categories; lineItems.csv -> assessments (of the subject and class
 * section of their scheduled class, in the term of their grading period, held on their dueDate,
 * scored out of resultValueMax); results.csv -> marks, the student's score in the class section's
 * record. Results are the bulk of a bundle (millions of rows): they are checked here and handed on
 * in batches, never held whole.
 */

export async function readCategories(context: ImportContext): Promise<void> {
  await forEachRow(context, 'categories.csv', ['sourcedId', 'title'], (reader) => {
    const start = rowStart(context, reader, 'assessment_categories', 'metadata.contractId');
    if (!start) return;
    const title = reader.required('title') ?? '';
    takeRow(context, reader, 'assessment_categories', start, {
      name_ar: title,
      name_en: reader.text('metadata.nameEn') || title,
    });
  });
  assignIds(context, 'assessment_categories');
}

export async function readLineItems(context: ImportContext): Promise<void> {
  const { book } = context;
  await forEachRow(
    context,
    'lineItems.csv',
    [
      'sourcedId',
      'title',
      'assignDate',
      'dueDate',
      'classSourcedId',
      'gradingPeriodSourcedId',
      'resultValueMin',
      'resultValueMax',
    ],
    (reader) => {
      const start = rowStart(context, reader, 'assessments', 'metadata.contractId');
      if (!start) return;
      const title = reader.required('title') ?? '';
      reader.date('assignDate', true);
      const dueDate = reader.date('dueDate', true);
      const reference = (column: string, tables: Parameters<typeof book.resolve>[2], what: string) => {
        const sourcedId = reader.required(column);
        return sourcedId ? book.resolve(reader, column, tables, sourcedId, what) : undefined;
      };
      const section = reference('classSourcedId', ['class_subjects', 'classes'], 'class');
      // OneRoster requires a category; a store that has assessments without one exports them with none.
      const categoryId = reader.raw('categorySourcedId');
      const category = categoryId
        ? book.resolve(reader, 'categorySourcedId', ['assessment_categories'], categoryId, 'category')
        : null;
      const term = reference('gradingPeriodSourcedId', ['terms', 'academic_years'], 'grading period');
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
        reader.fail(
          'gradingPeriodSourcedId',
          'unknown-reference',
          'a lineItem belongs to a term or grading period, not a school year',
        );
      }
      if (min !== undefined && max !== undefined && max <= min) {
        reader.fail('resultValueMax', 'bad-number', 'resultValueMax is not above resultValueMin');
      }
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
    },
  );
  assignIds(context, 'assessments');
}

/** A result as it is staged for the store: checked, its references turned into ids. */
export interface StagedMark {
  readonly line: number;
  readonly sourcedId: string;
  readonly pinnedId: number | null;
  readonly assessmentId: number;
  readonly studentRecordId: number;
  readonly score: number;
  readonly modifiedAt: string | null;
  /** A delta's status=tobedeleted: the mark leaves the store. */
  readonly deleted: boolean;
}

const SCORE_STATUSES = ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'] as const;
const BATCH = 2000;

/** Reads results.csv, handing checked rows to `stage` in batches. Returns how many rows were taken. */
export async function readResults(
  context: ImportContext,
  recordOf: (studentId: number, classId: number) => number | undefined,
  stage: (marks: StagedMark[]) => Promise<void>,
): Promise<number> {
  const { book } = context;
  let batch: StagedMark[] = [];
  let taken = 0;
  const idOf = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Entry).id : Number(value));
  await forEachRow(
    context,
    'results.csv',
    ['sourcedId', 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'score', 'scoreDate'],
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
          });
        }
        return;
      }
      const lineItem = reader.required('lineItemSourcedId');
      const studentId = reader.required('studentSourcedId');
      reader.oneOf('scoreStatus', SCORE_STATUSES, true);
      const score = reader.number('score', true);
      reader.date('scoreDate', true);
      const assessment = lineItem && book.resolve(reader, 'lineItemSourcedId', ['assessments'], lineItem, 'lineItem');
      const student = studentId && book.resolve(reader, 'studentSourcedId', ['students'], studentId, 'student');
      const record = assessment && student ? recordOf(student.id, idOf(assessment.row?.class_id)) : undefined;
      if (assessment && student && record === undefined && !book.leftOutFor(reader, 'student_records')) {
        reader.fail(
          'studentSourcedId',
          'unknown-reference',
          `student "${studentId}" is not enrolled in the class of lineItem "${lineItem}"`,
        );
      }
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
