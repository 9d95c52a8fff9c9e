import type { BundleReading } from '../bundle-reading';
import type { ImportContext } from '../import-context';
import { type BundleFile, forEachRow, rowStart } from '../read-file';
import { USER_TABLES } from '../roster-book';
import {
  type MetadataColumn,
  type OneRosterCollection,
  requiredIn,
  type RowsOf,
  sourcedIdOf,
  storedRows,
} from './collection';
import { date, isObject, type Json, restCommon, type Row, text } from './rest-cells';

/**
 * demographics.csv: a student's birth date and sex, which the student's record in users.csv takes
 * (a record of the store, in a delta that does not list the user, is changed by id).
 */
export const DEMOGRAPHICS_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex'] as const;

type Column = (typeof DEMOGRAPHICS_COLUMNS)[number];

const SEXES: Readonly<Record<string, string>> = { M: 'male', F: 'female', O: 'other' };

/**
 * A demographics row marked tobedeleted ends the student's demographics, not the student: a bulk
 * import of the school without that row keeps the student (users.csv's) with no birth date or sex.
 * A student the delta deletes too, or one the store does not hold, has nothing left to clear.
 */
function clearDemographics(context: ImportContext, sourcedId: string): void {
  const student = context.book.find('students', sourcedId);
  if (!student) return;
  const columns = { gender: '', birth_date: '' };
  if (student.row && student.line > 0) Object.assign(student.row, columns);
  else context.patches.push({ table: 'students', id: student.id, columns });
  context.kept.forget('demographics.csv', sourcedId);
}

async function readDemographics({ context }: BundleReading, file: BundleFile): Promise<void> {
  await forEachRow<Column | MetadataColumn>(context, file, requiredIn(demographics, context.version), (reader) => {
    // No table named: a tobedeleted row deletes no record of its own (see clearDemographics).
    const start = rowStart(context, reader, [], 'metadata.contractId');
    if (!start) {
      if (reader.ok && reader.raw('status') === 'tobedeleted') clearDemographics(context, reader.raw('sourcedId'));
      return;
    }
    const birthDate = reader.date('birthDate', false);
    const sex = reader.oneOf('sex', ['male', 'female', 'other', 'unspecified'], false);
    const user = context.book.resolve(reader, 'sourcedId', USER_TABLES, start.sourcedId, 'user');
    const student = user?.table === 'students' ? user : undefined;
    if (!reader.ok || !student) return;
    const columns = {
      gender: { male: 'M', female: 'F', other: 'O', unspecified: '' }[sex ?? 'unspecified'],
      birth_date: birthDate ?? '',
    };
    if (student.row && student.line > 0) Object.assign(student.row, columns);
    else context.patches.push({ table: 'students', id: student.id, columns });
  });
}

/** A REST demographics record: every plain member is a column of the same name. */
function demographicsFromRest(record: Json): Row {
  const row = restCommon(record);
  for (const [name, value] of Object.entries(record)) {
    if (!(name in row) && name !== 'metadata' && !isObject(value))
      row[name] = name === 'birthDate' ? date(value) : text(value);
  }
  return row;
}

export const demographics = {
  name: 'demographics',
  service: 'rostering',
  columns: DEMOGRAPHICS_COLUMNS,
  required: ['sourcedId'],
  // Its rows are no records of their own: a student's are users.csv's.
  import: { fills: [], read: readDemographics },
  export: {
    reads: { whole: ['students'] },
    header: DEMOGRAPHICS_COLUMNS,
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'students')) {
        if (!row.gender && !row.birth_date) continue;
        yield {
          sourcedId: sourcedIdOf(school, 'students', row),
          birthDate: row.birth_date,
          sex: SEXES[String(row.gender)] ?? '',
        };
      }
    },
  },
  fromRest: demographicsFromRest,
} as const satisfies OneRosterCollection<'demographics', Column>;
