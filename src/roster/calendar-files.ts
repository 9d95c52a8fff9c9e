import { type ReadColumn, requiredColumns } from './oneroster-columns';
import type { FieldReader } from './fields';
import type { ImportContext } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import type { Entry } from './roster-book';

/**
 * orgs.csv -> the school; academicSessions.csv -> academic years and terms. The store holds one
 * school: the bundle's one org of type school, or of several the one --school names (other orgs, a
 * district say, are only names rows may refer to). A schoolYear is an academic year; a term or
 * semester is a term of the year it sits in (its parent, the year whose schoolYear it names, else
 * a year made from that column); a grading period inside a term is that term.
 */

const ORG_TYPES = ['department', 'school', 'district', 'local', 'state', 'national'] as const;
const SESSION_TYPES = ['schoolYear', 'term', 'semester', 'gradingPeriod'] as const;

export async function readOrgs(context: ImportContext): Promise<void> {
  const { school } = context;
  const schools: Array<{
    line: number;
    start: NonNullable<ReturnType<typeof rowStart>>;
    row: Record<string, unknown>;
  }> = [];
  await forEachRow(context, 'orgs.csv', requiredColumns('orgs', context.version), (reader) => {
    const start = rowStart(context, reader, 'schools', 'metadata.contractId');
    if (!start) return;
    const name = reader.required('name') ?? '';
    const type = reader.oneOf('type', ORG_TYPES, true);
    if (reader.ok) context.orgs.add(start.sourcedId);
    if (type !== 'school') return;
    school.candidates.push({ sourcedId: start.sourcedId, name, identifier: reader.text('identifier') });
    // Another school than the one --school names: left out like the rows of it (and not given back).
    if (school.chosen !== undefined && school.chosen !== start.sourcedId) school.leftOut.skipped += 1;
    const row = { name_ar: name, name_en: reader.text('metadata.nameEn') || name };
    if (!reader.ok) context.book.markInvalid('schools', start.sourcedId, reader);
    else if (school.chosen === undefined || school.chosen === start.sourcedId) {
      schools.push({ line: reader.line, start, row });
    }
  });
  const reader = context.readers.get('orgs.csv');
  if (!reader) return;
  const chosenFound =
    school.candidates.some((found) => found.sourcedId === school.chosen) ||
    (context.mode === 'delta' && school.chosen !== undefined && context.book.find('schools', school.chosen));
  if (school.chosen !== undefined && !chosenFound) {
    reader.failAt(
      1,
      'type',
      'unknown-reference',
      `--school "${school.chosen}" names no org of type school in orgs.csv` +
        ` (its schools: ${school.candidates.map((found) => found.sourcedId).join(', ') || 'none'})`,
    );
  }
  // Several schools and none chosen: nothing is taken; the import stops and lists them.
  if (schools.length > 1) {
    school.needed = true;
    return;
  }
  for (const { line, start, row } of schools) {
    reader.begin({ line, values: [] });
    takeRow(context, reader, 'schools', start, row);
  }
  assignIds(context, 'schools');
  if (context.mode === 'bulk' && context.book.entries('schools').length === 0) {
    // Not a row --skip-invalid could leave out: what is left would be a school without its school.
    const problem = { file: 'orgs.csv', line: 1, column: 1, message: 'no org of type school' };
    context.problems.add({ ...problem, rule: 'missing-value' }, 'there is no school to write the rest into');
  }
}

interface SessionRow {
  readonly line: number;
  readonly sourcedId: string;
  readonly type: (typeof SESSION_TYPES)[number];
  readonly parent: string;
  readonly schoolYear: number;
  readonly start: ReturnType<typeof rowStart>;
  readonly row: Record<string, unknown>;
}

export async function readAcademicSessions(context: ImportContext): Promise<void> {
  const sessions: SessionRow[] = [];
  // OneRoster 1.0 has no schoolYear column: each session's year is then the year its endDate falls in.
  const required: readonly ReadColumn<'academicSessions'>[] = requiredColumns(
    'academicSessions',
    context.version,
  ).filter((column) => column !== 'schoolYear');
  let yearsFromEndDates = false;
  const derived: Array<{ sourcedId: string; fields: Array<[string, string]> }> = [];
  await forEachRow(context, 'academicSessions.csv', required, (reader) => {
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
    const row =
      type === 'schoolYear'
        ? { name: title, starts_on: startsOn, ends_on: endsOn }
        : { name_ar: title, name_en: reader.text('metadata.nameEn') || title, starts_on: startsOn, ends_on: endsOn };
    // What is given back must import on its own: a kept row (a grading period the store does not hold) gets its year.
    if (yearsFromEndDates)
      derived.push({
        sourcedId: start.sourcedId,
        fields: [...reader.writtenFields(), ['schoolYear', String(schoolYear)]],
      });
    sessions.push({
      line: reader.line,
      sourcedId: start.sourcedId,
      type,
      parent: reader.raw('parentSourcedId'),
      schoolYear,
      start,
      row,
    });
  });
  for (const { sourcedId, fields } of derived) {
    context.kept.keepUnusedFields('academicSessions.csv', sourcedId, Object.fromEntries(fields));
  }
  const reader = context.readers.get('academicSessions.csv');
  if (!reader) return;
  const at = (session: SessionRow) => reader.begin({ line: session.line, values: [] });
  const years = sessions.filter((session) => session.type === 'schoolYear');
  for (const session of years) {
    at(session);
    if (session.start) takeRow(context, reader, 'academic_years', session.start, session.row);
  }
  assignIds(context, 'academic_years');
  resolveTerms(
    context,
    reader,
    sessions.filter((session) => session.type !== 'schoolYear'),
    at,
  );
  assignIds(context, 'terms');
}

/** Terms under their year; grading periods and terms nested in a term become that term, whatever the file's order. */
function resolveTerms(
  context: ImportContext,
  reader: FieldReader,
  pending: SessionRow[],
  at: (session: SessionRow) => void,
  yearsMade = true,
): void {
  const { book } = context;
  const yearOf = (session: SessionRow): Entry | undefined =>
    book.find('academic_years', `year:${session.schoolYear}`) ??
    book.all('academic_years').find((year) => String(year.row?.ends_on ?? '').startsWith(String(session.schoolYear)));
  let left = [...pending];
  for (let progress = true; left.length > 0 && progress; ) {
    const waiting: SessionRow[] = [];
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
function yearsFromColumn(context: ImportContext, reader: FieldReader, orphans: readonly SessionRow[]): boolean {
  const byYear = new Map<number, SessionRow[]>();
  for (const session of orphans) byYear.set(session.schoolYear, [...(byYear.get(session.schoolYear) ?? []), session]);
  let made = false;
  for (const [schoolYear, sessions] of byYear) {
    const startsOn = sessions.map((session) => String(session.row.starts_on)).sort()[0];
    const endsOn = sessions.map((session) => String(session.row.ends_on)).sort()[sessions.length - 1];
    const name = startsOn.slice(0, 4) === endsOn.slice(0, 4) ? `${schoolYear}` : `${schoolYear - 1}/${schoolYear}`;
    const lines = sessions.map((session) => session.line);
    reader.begin({ line: Math.min(...lines), values: [] });
    const entry = context.book.accept('academic_years', reader, {
      sourcedId: `year:${schoolYear}`,
      row: { name, starts_on: startsOn, ends_on: endsOn },
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
