import type { BundleReading } from '../bundle-reading';
import type { FieldReader } from '../fields';
import type { ImportContext } from '../import-context';
import { assignIds, type BundleFile, type FilledRow, forEachRow, rowStart, takeRow } from '../read-file';
import type { Entry } from '../roster-book';
import type { MetadataColumn, RowsOf, StoredRowOf } from './collection';
import { commonCells, type OneRosterCollection, requiredIn, storedById, storedRows } from './collection';
import { byColumns } from './rest-cells';

/**
 * academicSessions.csv: school years and terms. A schoolYear is an academic year; a term or
 * semester is a term of the year it sits in (its parent, the year whose schoolYear it names, else
 * a year made from that column); a grading period inside a term is that term.
 */
export const ACADEMIC_SESSIONS_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'type',
  'startDate',
  'endDate',
  'parentSourcedId',
  'schoolYear',
] as const;

type Column = (typeof ACADEMIC_SESSIONS_COLUMNS)[number];

type ReadColumn = Column | MetadataColumn;

const SESSION_TYPES = ['schoolYear', 'term', 'semester', 'gradingPeriod'] as const;

const endYear = (year: StoredRowOf<'academic_years'> | undefined) => String(year?.ends_on ?? '').slice(0, 4);

export const academicSessions = {
  name: 'academicSessions',
  service: 'rostering',
  columns: ACADEMIC_SESSIONS_COLUMNS,
  required: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  import: { fills: ['academic_years', 'terms'], read: readAcademicSessions },
  export: {
    reads: { whole: ['academic_years', 'terms'] },
    header: [...ACADEMIC_SESSIONS_COLUMNS, 'metadata.nameEn', 'metadata.contractId'],
    *rows({ school }): RowsOf<Column> {
      for (const row of storedRows(school, 'academic_years')) {
        yield {
          title: row.name,
          type: 'schoolYear',
          startDate: row.starts_on,
          endDate: row.ends_on,
          schoolYear: endYear(row),
          'metadata.contractId': row.id,
          ...commonCells(school, 'academic_years', row),
        };
      }
      const years = storedById(school, 'academic_years');
      for (const row of storedRows(school, 'terms')) {
        yield {
          title: row.name_ar,
          type: 'term',
          startDate: row.starts_on,
          endDate: row.ends_on,
          parentSourcedId: school.ref('academic_years', row.academic_year_id),
          schoolYear: endYear(years.get(Number(row.academic_year_id))),
          'metadata.nameEn': row.name_en,
          'metadata.contractId': row.id,
          ...commonCells(school, 'terms', row),
        };
      }
    },
  },
  fromRest: byColumns<Column>([
    ['title', 'title', 'text'],
    ['type', 'type', 'text'],
    ['startDate', 'startDate', 'date'],
    ['endDate', 'endDate', 'date'],
    ['parentSourcedId', 'parent', 'ref'],
    ['schoolYear', 'schoolYear', 'text'],
  ]),
} as const satisfies OneRosterCollection<'academicSessions', Column>;

/** A term's row until the year it sits in is found. */
type TermFields = Omit<FilledRow<'terms'>, 'academic_year_id'>;

/** A row of academicSessions.csv, taken once every row is read: a school year, or a term of one. */
type SessionRow = {
  readonly line: number;
  readonly sourcedId: string;
  readonly parent: string;
  readonly schoolYear: number;
  readonly start: ReturnType<typeof rowStart>;
} & (
  | { readonly type: 'schoolYear'; readonly row: FilledRow<'academic_years'> }
  | { readonly type: Exclude<(typeof SESSION_TYPES)[number], 'schoolYear'>; readonly row: TermFields }
);
type TermRow = Extract<SessionRow, { readonly row: TermFields }>;

async function readAcademicSessions({ context }: BundleReading, file: BundleFile): Promise<void> {
  const sessions: SessionRow[] = [];
  // OneRoster 1.0 has no schoolYear column: each session's year is then the year its endDate falls in.
  const required = requiredIn(academicSessions, context.version).filter((column) => column !== 'schoolYear');
  let yearsFromEndDates = false;
  const derived: Array<{ sourcedId: string; fields: Array<[string, string]> }> = [];
  await forEachRow<ReadColumn>(context, file, required, (reader) => {
    if (!yearsFromEndDates && !reader.hasColumn('schoolYear')) {
      yearsFromEndDates = true;
      const message =
        "the header has no schoolYear column (OneRoster 1.0's): each session's is the year of its endDate";
      reader.warnAt(1, 'schoolYear', 'school-year-from-end-date', message);
    }
    const start = rowStart(context, reader, ['academic_years', 'terms'], 'metadata.contractId');
    if (!start) return;
    const title = reader.required('title') ?? '';
    const type = reader.oneOf('type', SESSION_TYPES, true);
    const startsOn = reader.date('startDate', true);
    const endsOn = reader.date('endDate', true);
    const schoolYear = yearsFromEndDates
      ? endsOn === undefined
        ? undefined
        : Number(endsOn.slice(0, 4))
      : reader.integer('schoolYear', true, { min: 1900, max: 2200 });
    if (startsOn && endsOn && endsOn < startsOn) reader.fail('endDate', 'bad-date', 'endDate is before startDate');
    if (!reader.ok || type === undefined || schoolYear === undefined) {
      context.book.markInvalid(type === 'schoolYear' ? 'academic_years' : 'terms', start.sourcedId, reader);
      return;
    }
    // What is given back must import on its own: a kept row (a grading period the store does not hold) gets its year.
    if (yearsFromEndDates)
      derived.push({
        sourcedId: start.sourcedId,
        fields: [...reader.writtenFields(), ['schoolYear', String(schoolYear)]],
      });
    const session = {
      line: reader.line,
      sourcedId: start.sourcedId,
      parent: reader.raw('parentSourcedId'),
      schoolYear,
    };
    sessions.push(
      type === 'schoolYear'
        ? { ...session, start, type, row: { name: title, starts_on: startsOn, ends_on: endsOn } }
        : { ...session, start, type, row: termFields(title, reader.text('metadata.nameEn'), startsOn, endsOn) },
    );
  });
  for (const { sourcedId, fields } of derived) {
    context.kept.keepUnusedFields('academicSessions.csv', sourcedId, Object.fromEntries(fields));
  }
  const reader = context.readers.get('academicSessions.csv');
  if (!reader) return;
  const at = (session: SessionRow) => reader.begin({ line: session.line, values: [] });
  for (const session of sessions) {
    if (session.type !== 'schoolYear') continue;
    at(session);
    if (session.start) takeRow(context, reader, 'academic_years', session.start, session.row);
  }
  assignIds(context, 'academic_years');
  resolveTerms(
    context,
    reader,
    sessions.filter((session): session is TermRow => session.type !== 'schoolYear'),
    at,
  );
  assignIds(context, 'terms');
}

/** Terms under their year; grading periods and terms nested in a term become that term, whatever the file's order. */
function resolveTerms(
  context: ImportContext,
  reader: FieldReader,
  pending: TermRow[],
  at: (session: SessionRow) => void,
  yearsMade = true,
): void {
  const { book } = context;
  const yearOf = (session: TermRow): Entry | undefined =>
    book.find('academic_years', `year:${session.schoolYear}`) ??
    book.all('academic_years').find((year) => String(year.row?.ends_on ?? '').startsWith(String(session.schoolYear)));
  let left = [...pending];
  for (let progress = true; left.length > 0 && progress; ) {
    const waiting: TermRow[] = [];
    for (const session of left) {
      const parentTerm = session.parent ? book.find('terms', session.parent) : undefined;
      const parentYear = session.parent ? book.find('academic_years', session.parent) : yearOf(session);
      if (parentTerm) book.alias(session.sourcedId, parentTerm);
      else if (parentYear && session.start) {
        at(session);
        takeRow(context, reader, 'terms', session.start, { ...session.row, academic_year_id: parentYear });
      } else waiting.push(session);
    }
    progress = waiting.length < left.length;
    left = waiting;
  }
  const orphans = left.filter((session) => !session.parent);
  if (yearsMade && orphans.length > 0 && yearsFromColumn(context, reader, orphans)) {
    // Their years exist now: the terms find them, and the sessions inside them their terms.
    resolveTerms(context, reader, left, at, false);
    return;
  }
  for (const session of left) {
    at(session);
    if (session.parent) book.resolve(reader, 'parentSourcedId', ['academic_years', 'terms'], session.parent, 'session');
    else reader.fail('schoolYear', 'unknown-reference', `no schoolYear session ends in ${session.schoolYear}`);
    book.markInvalid('terms', session.sourcedId, reader);
  }
}

/**
 * Terms with no parent and no schoolYear session of their year: the year is made from their
 * `schoolYear` column, from the earliest start to the latest end of its terms (a warning at the
 * first of them). Returns whether any year was made.
 */
function yearsFromColumn(context: ImportContext, reader: FieldReader, orphans: readonly TermRow[]): boolean {
  const byYear = new Map<number, TermRow[]>();
  for (const session of orphans) byYear.set(session.schoolYear, [...(byYear.get(session.schoolYear) ?? []), session]);
  let made = false;
  for (const [schoolYear, sessions] of byYear) {
    const startsOn = sessions.map((session) => String(session.row.starts_on)).sort()[0];
    const endsOn = sessions.map((session) => String(session.row.ends_on)).sort()[sessions.length - 1];
    const name = startsOn.slice(0, 4) === endsOn.slice(0, 4) ? `${schoolYear}` : `${schoolYear - 1}/${schoolYear}`;
    const lines = sessions.map((session) => session.line);
    reader.begin({ line: Math.min(...lines), values: [] });
    const row: FilledRow<'academic_years'> = { name, starts_on: startsOn, ends_on: endsOn };
    const entry = context.book.accept('academic_years', reader, {
      sourcedId: `year:${schoolYear}`,
      row,
      modifiedAt: undefined,
    });
    if (!entry) continue;
    made = true;
    reader.warn(
      'schoolYear',
      'year-from-terms',
      `no schoolYear session for ${schoolYear}: academic year "${name}" (sourcedId "year:${schoolYear}") made ` +
        `from ${startsOn} to ${endsOn}, the terms at academicSessions.csv lines ${lines.join(', ')}`,
    );
  }
  if (made) assignIds(context, 'academic_years');
  return made;
}

/** A term's own fields: its title in the school's language, and in English (the same when none is given). */
function termFields(title: string, nameEn: string, startsOn: unknown, endsOn: unknown): TermFields {
  return { name_ar: title, name_en: nameEn || title, starts_on: startsOn, ends_on: endsOn };
}
