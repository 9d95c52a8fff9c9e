import { readSchoolTable } from '../../store/roster/school-reader';
import { schoolTable } from '../../store/roster/school-tables';
import {
  type AsyncRowsOf,
  type Cell,
  commonCells,
  type ExportSource,
  type OneRosterCollection,
  type StoredRowOf,
  storedById,
} from './collection';
import { byColumns } from './rest-cells';

/**
 * results.csv: the marks, the largest file, read from the store a page at a time with the fields
 * an import kept of each (a comment, a scoreDate, a 1.2 textScore ...), which come back with them
 * (import: gradebook-files.ts, readResults, staged in the store).
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
      ...commonCells(school, 'marks', row),
      lineItemSourcedId: school.ref('assessments', row.assessment_id),
      studentSourcedId: school.ref('students', records.get(Number(row.student_record_id))?.student_id),
      scoreStatus: 'fully graded',
      score: row.score,
      scoreDate: assessments.get(Number(row.assessment_id))?.held_on ?? '',
      comment: '',
      'metadata.contractId': row.id,
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
  export: { header: HEADER, rows: exportedResults, keptHeader },
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
