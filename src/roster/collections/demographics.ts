import { type OneRosterCollection, type RowsOf, sourcedIdOf, storedRows } from './collection';
import { date, isObject, type Json, restCommon, type Row, text } from './rest-cells';

/** demographics.csv: a student's birth date and sex (import: user-files.ts, readDemographics). */
export const DEMOGRAPHICS_COLUMNS = ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex'] as const;

type Column = (typeof DEMOGRAPHICS_COLUMNS)[number];

const SEXES: Readonly<Record<string, string>> = { M: 'male', F: 'female', O: 'other' };

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
  export: {
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
