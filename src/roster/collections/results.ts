import { readSchoolTable } from '../../store/roster/school-reader';
import { schoolTable } from '../../store/roster/school-tables';
import {
  assignMarkIds,
  createMarkStaging,
  dropUnchangedMarks,
  duplicateMarks,
  type MarkRow,
  stageMarks,
} from '../../store/roster/staged-marks';
import type { BundleReading } from '../bundle-reading';
import { clip, type FieldReader } from '../fields';
import { type BundleFile, forEachRow, type RowStart, rowStart } from '../read-file';
import type { Entry } from '../roster-book';
import {
  type AsyncRowsOf,
  type Cell,
  commonCells,
  type ExportSource,
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type StoredRowOf,
  storedById,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * results.csv: the marks, the largest file, read from the store a page at a time with the fields
 * an import kept of each (a comment, a scoreDate, a 1.2 textScore ...), which come back with them.
 * Results are the bulk of a bundle (millions of rows): the import checks them and stages them in
 * the store in batches, never holding them whole.
 */
export const RESULTS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'lineItemSourcedId',
  'studentSourcedId',
  'scoreStatus',
  'score',
  'scoreDate',
  'comment',
] as const;

type Column = (typeof RESULTS_COLUMNS)[number];

/** The columns 1.2 adds to results.csv, in the binding's order. */
const RESULTS_12_COLUMNS = [
  'classSourcedId',
  'scoreScaleSourcedId',
  'textScore',
  'learningObjectiveSet',
  'inProgress',
  'incomplete',
  'late',
  'missing',
] as const;

/** The columns a reader of results.csv may ask for. */
type ResultColumn = Column | (typeof RESULTS_12_COLUMNS)[number] | MetadataColumn;

const HEADER = [...RESULTS_COLUMNS, 'metadata.contractId'] as const;

/** The kept fields' columns the header lacks (names compared in any letter case), in the store's order. */
async function keptHeader(source: ExportSource): Promise<readonly string[]> {
  const known = new Set<string>(HEADER.map((column) => column.toLowerCase()));
  const extra: string[] = [];
  for (const name of await source.keptColumns('results.csv')) {
    if (known.has(name.toLowerCase())) continue;
    known.add(name.toLowerCase());
    extra.push(name);
  }
  return extra;
}

/** A row's kept fields (JSON) over the export's values, each under the header's spelling of its column. */
function withKept(
  record: Record<string, Cell>,
  kept: unknown,
  spelling: ReadonlyMap<string, string>,
): Record<string, Cell> {
  if (typeof kept !== 'string') return record;
  for (const [column, value] of Object.entries(JSON.parse(kept) as Record<string, string>)) {
    const name = spelling.get(column.toLowerCase());
    if (name !== undefined) record[name] = value;
  }
  return record;
}

async function* exportedResults(source: ExportSource): AsyncRowsOf<Column> {
  const { school } = source;
  const spelling = new Map(
    [...HEADER, ...(await keptHeader(source))].map((column) => [column.toLowerCase(), column] as const),
  );
  const assessments = storedById(school, 'assessments');
  const records = storedById(school, 'student_records');
  const marks = readSchoolTable(school.connection, schoolTable('marks'), 'results.csv');
  for await (const stored of marks) {
    const row = stored as unknown as StoredRowOf<'marks'>;
    const record: Record<Column | 'metadata.contractId', Cell> = {
      lineItemSourcedId: school.ref('assessments', row.assessment_id),
      studentSourcedId: school.ref('students', records.get(Number(row.student_record_id))?.student_id),
      scoreStatus: 'fully graded',
      score: row.score,
      scoreDate: assessments.get(Number(row.assessment_id))?.held_on ?? '',
      comment: '',
      'metadata.contractId': row.id,
      ...commonCells(school, 'marks', row),
    };
    yield withKept(record, row.kept, spelling);
  }
}

export const results = {
  name: 'results',
  service: 'gradebook',
  columns: RESULTS_COLUMNS,
  required: ['sourcedId', 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'score', 'scoreDate'],
  notRequiredIn12: ['score'],
  import: { fills: ['marks'], keptWhole: false, read: readResults },
  export: {
    // The marks, millions in a large school, are read a page at a time as their rows are written.
    reads: { whole: ['assessments', 'student_records', 'students'], paged: ['marks'] },
    header: HEADER,
    rows: exportedResults,
    keptHeader,
  },
  fromRest: byColumns<Column | 'textScore'>([
    ['lineItemSourcedId', 'lineItem', 'ref'],
    ['studentSourcedId', 'student', 'ref'],
    ['scoreStatus', 'scoreStatus', 'text'],
    ['score', 'score', 'text'],
    ['scoreDate', 'scoreDate', 'date'],
    ['comment', 'comment', 'text'],
    ['textScore', 'textScore', 'text', 'present'],
  ]),
} as const satisfies OneRosterCollection<'results', Column>;

const BATCH = 2000;

/**
 * Reads results.csv, handing checked rows to the store's staging in batches: their references
 * turned into ids, a delta's status=tobedeleted as a row that deletes its mark. Then the staged
 * marks are checked as a whole: a sourcedId twice, two rows asking for one id.
 */
async function readResults(reading: BundleReading, file: BundleFile): Promise<void> {
  const { context, connection } = reading;
  await createMarkStaging(connection);
  let batch: MarkRow[] = [];
  await forEachRow<ResultColumn>(
    context,
    file,
    requiredIn(results, context.version),
    (reader) => {
      const mark = markOfRow(reading, reader);
      if (mark) batch.push(mark);
    },
    {
      every: BATCH,
      flush: async () => {
        const full = batch;
        batch = [];
        if (full.length > 0) await stageMarks(connection, full);
      },
    },
  );
  await checkStagedMarks(reading);
}

/** The staged marks' duplicates and id clashes, each a problem at its row; in a delta, the unchanged marks dropped. */
async function checkStagedMarks({ context, connection, highestMarkId, skipInvalid }: BundleReading): Promise<void> {
  const reader = context.readers.get('results.csv');
  if (!reader) return;
  for (const duplicate of await duplicateMarks(connection, skipInvalid)) {
    reader.failAt(
      duplicate.line,
      'sourcedId',
      'duplicate-sourcedId',
      `sourcedId "${duplicate.sourcedId}" is already on line ${duplicate.firstLine} of results.csv`,
    );
  }
  for (const clash of await assignMarkIds(connection, highestMarkId, skipInvalid)) {
    reader.failAt(
      clash.line,
      'metadata.contractId',
      'id-clash',
      `id ${clash.id} is asked for by results.csv:${clash.line} and results.csv:${clash.firstLine}`,
    );
  }
  if (context.mode === 'delta') await dropUnchangedMarks(connection);
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
function keptResultFields(reader: FieldReader<ResultColumn>, dueDate: unknown): string | null {
  const fields = reader.writtenFieldsBut(
    (column, value) =>
      RESULT_FROM_STORE.has(column) ||
      (column === 'scorestatus' && value === 'fully graded') ||
      (column === 'scoredate' && value === dueDate),
  );
  return fields ? JSON.stringify(fields) : null;
}

/** 1.2's flags of a result: checked, not kept by the store (they are given back). */
const RESULT_FLAGS = ['inProgress', 'incomplete', 'late', 'missing'] as const satisfies readonly ResultColumn[];

const SCORE_STATUSES = ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'] as const;
/** 1.2 results whose score may be empty: nothing was graded, so no mark is stored and nothing is wrong. */
const UNSCORED = new Set<string>(['exempt', 'not submitted', 'submitted']);

/** What a result's mark is worked out from besides its row: the files read before (bundle-reading.ts). */
type ResultLookups = Pick<BundleReading, 'context' | 'recordOf' | 'scaleOf' | 'scales'>;

/** A row of results.csv as the mark it stages: a delta's deletion, a mark, or none (a wrong row, or no mark). */
function markOfRow(lookups: ResultLookups, reader: FieldReader<ResultColumn>): MarkRow | undefined {
  const { context } = lookups;
  const status = reader.raw('status').toLowerCase();
  const start = rowStart(context, reader, 'marks', 'metadata.contractId');
  if (start) return markOf(lookups, reader, start);
  if (status === 'tobedeleted' && context.mode === 'delta' && reader.ok) return deletedMark(reader);
  return undefined;
}

/** A delta's result with status=tobedeleted: a staged row that deletes the mark of its sourcedId. */
function deletedMark(reader: FieldReader<ResultColumn>): MarkRow {
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
function markOf(lookups: ResultLookups, reader: FieldReader<ResultColumn>, start: RowStart): MarkRow | undefined {
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
function readScoreFields(lookups: ResultLookups, reader: FieldReader<ResultColumn>): GivenScore {
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
  reader: FieldReader<ResultColumn>,
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
  reader: FieldReader<ResultColumn>,
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
  reader: FieldReader<ResultColumn>,
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
