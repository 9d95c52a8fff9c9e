import { ONEROSTER_COLUMNS, requiredColumnsOf } from './oneroster-columns';
import type { Store } from '../store/open-store';
import { counted } from '../lib/counted';
import { openImportConnection } from '../store/roster/import-connection';
import { keptColumns, readKeptFields } from '../store/roster/kept-fields';
import { readGuardianLinks, readSchoolTable, type StoredRow, storedSchool } from '../store/roster/school-reader';
import { type SchoolTableName, schoolTable } from '../store/roster/school-tables';
import { type BundleWriter, openBundleWriter } from './bundle-writer';
import { exportOwnFiles } from './export-own-files';
import { type GivingBackWriter, givingBack, withKeptColumns } from './giving-back';
import { ONEROSTER_FILES, V12_FILES } from './manifest';
import { withoutNeverKept } from './kept-fields';
import { oneRoster12Writer } from './oneroster-12-writer';
import type { Progress } from './progress';
import { emit, SchoolSnapshot } from './school-snapshot';
import type { SpreadsheetCells } from './spreadsheet-cells';

/** The binding an export writes: 1.1 unless asked (`export --oneroster 1.2`). */
export type OneRosterVersion = '1.1' | '1.2';

/**
 * Writes the store as a OneRoster 1.1 bundle (or 1.2: oneroster-12-writer.ts) plus the service's
 * own files, in the shapes the import reads, so that importing it gives the same school: every
 * record under its sourcedId and its id (metadata.contractId), names in both languages
 * (metadata.nameAr/nameEn), the homeroom of each scheduled class, and each guardian's relation.
 * What an import brought and the store does not model is given back (giving-back.ts).
 */
export interface ExportSummary {
  /** The school exported, by its English name and the sourcedId an import gave it. */
  readonly school: { name: string; sourcedId: string | null } | undefined;
  readonly files: Readonly<Record<string, number>>;
}

export async function exportSchool(
  store: Store,
  path: string,
  progress: Progress,
  cells?: SpreadsheetCells,
  version: OneRosterVersion = '1.1',
): Promise<ExportSummary> {
  const connection = await openImportConnection(store.connection);
  const bundle = await openBundleWriter(path, cells);
  let writer: GivingBackWriter = givingBack(bundle, new Map(), new Set());
  let v12: ReturnType<typeof oneRoster12Writer> | undefined;
  const counts: Record<string, number> = {};
  try {
    const school = new SchoolSnapshot(connection);
    for (const table of [
      'schools',
      'academic_years',
      'terms',
      'grade_levels',
      'subjects',
      'classes',
      'class_subjects',
      'teachers',
      'students',
      'guardians',
      'student_records',
      'teacher_assignments',
      'assessment_categories',
      'assessments',
      'absence_types',
      'note_types',
      'exams',
    ] as const) {
      await school.load(table);
    }
    // The imported rows' fields the store does not model are given back (see giving-back.ts).
    const kept = withoutNeverKept(await readKeptFields(connection));
    if (version === '1.2') v12 = oneRoster12Writer(bundle, !kept.has('roles.csv'));
    else {
      // 1.1 has no roles.csv, and no result without a score (a 1.2 result not submitted, or
      // with a text score no scale maps): those are not given back.
      kept.delete('roles.csv');
      for (const [sourcedId, fields] of kept.get('results.csv') ?? []) {
        if (!fields.score) kept.get('results.csv')?.delete(sourcedId);
      }
    }
    writer = givingBack(v12 ?? bundle, kept, school.storedSourcedIds(), (file) => requiredColumnsOf(file, version));
    await exportCalendar(writer, counts, school);
    await exportClasses(writer, counts, school);
    await exportUsers(writer, counts, school, await readGuardianLinks(connection));
    await exportGradebook(writer, counts, school);
    await exportOwnFiles(writer, counts, school);
    const files = version === '1.2' ? [...ONEROSTER_FILES, ...V12_FILES] : ONEROSTER_FILES;
    await writer.finish(
      counts,
      files.map((file) => `${file}.csv`),
    );
    if (v12 && v12.rolesWritten() > 0) counts['roles.csv'] = v12.rolesWritten();
    // Last, as it says which files have rows: the others are absent.
    await emit(writer, counts, 'manifest.csv', ['propertyName', 'value'], manifestRows(counts, version), (row) => row);
    // A file without rows is not written (the manifest declares it absent), so it is not counted.
    const written = Object.values(counts).filter((count) => count > 0).length;
    progress.note(`Wrote ${counted(written, 'file')} to ${path}.`);
    return { files: counts, school: await storedSchool(connection) };
  } finally {
    await writer.close();
    await connection.release();
  }
}

function* manifestRows(counts: Readonly<Record<string, number>>, version: OneRosterVersion): Iterable<string[]> {
  yield ['manifest.version', '1.0'];
  yield ['oneroster.version', version];
  for (const file of version === '1.2' ? [...ONEROSTER_FILES, ...V12_FILES] : ONEROSTER_FILES)
    yield [`file.${file}`, (counts[`${file}.csv`] ?? 0) > 0 ? 'bulk' : 'absent'];
  yield ['source.systemName', 'school-information-service'];
  yield ['source.systemCode', 'school-service'];
}

const common = (school: SchoolSnapshot, table: SchoolTableName, row: StoredRow) => [
  school.sourcedIdOf(table, row),
  '',
  row.modified_at ?? '',
];

async function exportCalendar(writer: BundleWriter, counts: Record<string, number>, school: SchoolSnapshot) {
  const orgs = school.rows.get('schools') ?? [];
  await emit(
    writer,
    counts,
    'orgs.csv',
    [...ONEROSTER_COLUMNS.orgs, 'metadata.nameEn', 'metadata.contractId'],
    orgs,
    (row) => [...common(school, 'schools', row), row.name_ar, 'school', '', '', row.name_en, row.id],
  );
  const years = school.byId('academic_years');
  const endYear = (year: StoredRow | undefined) => String(year?.ends_on ?? '').slice(0, 4);
  const header = [...ONEROSTER_COLUMNS.academicSessions, 'metadata.nameEn', 'metadata.contractId'];
  const sessions = [
    ...(school.rows.get('academic_years') ?? []).map((row) => [
      ...common(school, 'academic_years', row),
      row.name,
      'schoolYear',
      row.starts_on,
      row.ends_on,
      '',
      endYear(row),
      '',
      row.id,
    ]),
    ...(school.rows.get('terms') ?? []).map((row) => [
      ...common(school, 'terms', row),
      row.name_ar,
      'term',
      row.starts_on,
      row.ends_on,
      school.ref('academic_years', row.academic_year_id),
      endYear(years.get(Number(row.academic_year_id))),
      row.name_en,
      row.id,
    ]),
  ];
  await emit(writer, counts, 'academicSessions.csv', header, sessions, (row) => row);
}

async function exportClasses(writer: BundleWriter, counts: Record<string, number>, school: SchoolSnapshot) {
  const orgId = school.ref('schools', school.rows.get('schools')?.[0]?.id);
  await emit(
    writer,
    counts,
    'courses.csv',
    [...ONEROSTER_COLUMNS.courses, 'metadata.nameEn', 'metadata.contractId'],
    school.rows.get('subjects') ?? [],
    (row) => [...common(school, 'subjects', row), '', row.name_ar, row.code, '', orgId, '', '', row.name_en, row.id],
  );
  const classes = school.byId('classes');
  const firstSubject = new Map<number, unknown>();
  for (const section of school.rows.get('class_subjects') ?? []) {
    if (!firstSubject.has(Number(section.class_id))) firstSubject.set(Number(section.class_id), section.subject_id);
  }
  const anySubject = school.rows.get('subjects')?.[0]?.id;
  const header = [...ONEROSTER_COLUMNS.classes, 'metadata.nameEn', 'metadata.homeroomSourcedId', 'metadata.contractId'];
  const gradeOf = (klass: StoredRow | undefined) => school.ref('grade_levels', klass?.grade_level_id);
  const subjects = school.byId('subjects');
  const rows = [
    ...(school.rows.get('classes') ?? []).map((row) => [
      ...common(school, 'classes', row),
      row.name_ar,
      gradeOf(row),
      school.ref('subjects', firstSubject.get(row.id) ?? anySubject),
      row.section,
      'homeroom',
      '',
      orgId,
      school.ref('academic_years', row.academic_year_id),
      '',
      '',
      '',
      row.name_en,
      '',
      row.id,
    ]),
    ...(school.rows.get('class_subjects') ?? []).map((row) => {
      const klass = classes.get(Number(row.class_id));
      const subject = subjects.get(Number(row.subject_id));
      return [
        ...common(school, 'class_subjects', row),
        `${subject?.name_ar ?? ''} - ${klass?.name_ar ?? ''}`,
        gradeOf(klass),
        school.ref('subjects', row.subject_id),
        '',
        'scheduled',
        '',
        orgId,
        school.ref('academic_years', klass?.academic_year_id),
        '',
        '',
        '',
        `${subject?.name_en ?? ''} - ${klass?.name_en ?? ''}`,
        school.ref('classes', row.class_id),
        row.id,
      ];
    }),
  ];
  await emit(writer, counts, 'classes.csv', header, rows, (row) => row);
}

/** A name as given and family names: the last word is the family name. */
function splitName(name: string): [given: string, family: string] {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return [name, name];
  return [words.slice(0, -1).join(' '), words[words.length - 1]];
}

const GUARDIAN_ROLES = ['parent', 'guardian', 'relative'];

async function exportUsers(
  writer: BundleWriter,
  counts: Record<string, number>,
  school: SchoolSnapshot,
  links: Array<{ student_id: number; guardian_id: number; relation: string }>,
) {
  const orgId = school.ref('schools', school.rows.get('schools')?.[0]?.id);
  const guardiansOf = new Map<number, string[]>();
  const relationOf = new Map<number, string>();
  for (const link of links) {
    guardiansOf.set(link.student_id, [
      ...(guardiansOf.get(link.student_id) ?? []),
      school.ref('guardians', link.guardian_id),
    ]);
    if (!relationOf.has(link.guardian_id)) relationOf.set(link.guardian_id, link.relation);
  }
  const header = [
    ...ONEROSTER_COLUMNS.users,
    'metadata.nameAr',
    'metadata.nameEn',
    'metadata.relation',
    'metadata.contractId',
  ];
  const user = (table: SchoolTableName, row: StoredRow, role: string, agents: string[], relation: string) => {
    const sourcedId = school.sourcedIdOf(table, row);
    const [given, family] = splitName(String(row.name_ar));
    return [
      ...common(school, table, row),
      'true',
      orgId,
      role,
      sourcedId,
      '',
      given,
      family,
      '',
      row.id,
      '',
      '',
      row.phone ?? '',
      agents.join(','),
      '',
      row.name_ar,
      row.name_en,
      relation,
      row.id,
    ];
  };
  const rows = [
    ...(school.rows.get('students') ?? []).map((row) =>
      user('students', row, 'student', guardiansOf.get(row.id) ?? [], ''),
    ),
    ...(school.rows.get('teachers') ?? []).map((row) => user('teachers', row, 'teacher', [], '')),
    ...(school.rows.get('guardians') ?? []).map((row) => {
      const relation = relationOf.get(row.id) ?? 'guardian';
      return user('guardians', row, GUARDIAN_ROLES.includes(relation) ? relation : 'parent', [], relation);
    }),
  ];
  await emit(writer, counts, 'users.csv', header, rows, (row) => row);
  const sexes: Record<string, string> = { M: 'male', F: 'female', O: 'other' };
  await emit(
    writer,
    counts,
    'demographics.csv',
    [...ONEROSTER_COLUMNS.demographics],
    (school.rows.get('students') ?? []).filter((row) => row.gender || row.birth_date),
    (row) => [school.sourcedIdOf('students', row), '', '', row.birth_date, sexes[String(row.gender)] ?? ''],
  );
  const header2 = [...ONEROSTER_COLUMNS.enrollments, 'metadata.contractId'];
  const sectionOf = new Map<string, StoredRow>();
  for (const section of school.rows.get('class_subjects') ?? [])
    sectionOf.set(`${section.class_id} ${section.subject_id}`, section);
  const enrollments = [
    // A record without a class section has no class to be enrolled in: it is not written (the
    // scheduled-class enrolments it was inferred from are not kept; see docs/import.md).
    ...(school.rows.get('student_records') ?? [])
      .filter((row) => row.class_id !== null)
      .map((row) => [
        ...common(school, 'student_records', row),
        school.ref('classes', row.class_id),
        orgId,
        school.ref('students', row.student_id),
        'student',
        'false',
        row.enrolled_on,
        '',
        row.id,
      ]),
    ...(school.rows.get('teacher_assignments') ?? []).map((row) => {
      const section = sectionOf.get(`${row.class_id} ${row.subject_id}`);
      return [
        ...common(school, 'teacher_assignments', row),
        section ? school.sourcedIdOf('class_subjects', section) : school.ref('classes', row.class_id),
        orgId,
        school.ref('teachers', row.teacher_id),
        'teacher',
        'false',
        '',
        '',
        row.id,
      ];
    }),
  ];
  await emit(writer, counts, 'enrollments.csv', header2, enrollments, (row) => row);
}

async function exportGradebook(writer: BundleWriter, counts: Record<string, number>, school: SchoolSnapshot) {
  await emit(
    writer,
    counts,
    'categories.csv',
    [...ONEROSTER_COLUMNS.categories, 'metadata.nameEn', 'metadata.contractId'],
    school.rows.get('assessment_categories') ?? [],
    (row) => [...common(school, 'assessment_categories', row), row.name_ar, row.name_en, row.id],
  );
  const sectionOf = new Map<string, StoredRow>();
  for (const section of school.rows.get('class_subjects') ?? [])
    sectionOf.set(`${section.class_id} ${section.subject_id}`, section);
  await emit(
    writer,
    counts,
    'lineItems.csv',
    [...ONEROSTER_COLUMNS.lineItems, 'metadata.nameEn', 'metadata.contractId'],
    school.rows.get('assessments') ?? [],
    (row) => {
      const section = sectionOf.get(`${row.class_id} ${row.subject_id}`);
      return [
        ...common(school, 'assessments', row),
        row.name_ar,
        '',
        row.held_on,
        row.held_on,
        section ? school.sourcedIdOf('class_subjects', section) : school.ref('classes', row.class_id),
        school.ref('assessment_categories', row.category_id),
        school.ref('terms', row.term_id),
        0,
        row.max_score,
        row.name_en,
        row.id,
      ];
    },
  );
  const assessments = school.byId('assessments');
  const records = school.byId('student_records');
  // The marks' kept fields (a comment, a scoreDate, a 1.2 textScore ...) come with them, page by page.
  const results = withKeptColumns(
    [...ONEROSTER_COLUMNS.results, 'metadata.contractId'],
    await keptColumns(school.connection, 'results.csv'),
  );
  await emit(
    writer,
    counts,
    'results.csv',
    results.header,
    readSchoolTable(school.connection, schoolTable('marks'), 'results.csv'),
    (row) =>
      results.merge(
        [
          ...common(school, 'marks', row),
          school.ref('assessments', row.assessment_id),
          school.ref('students', records.get(Number(row.student_record_id))?.student_id),
          'fully graded',
          row.score,
          assessments.get(Number(row.assessment_id))?.held_on ?? '',
          '',
          row.id,
        ],
        row.kept,
      ),
  );
}
