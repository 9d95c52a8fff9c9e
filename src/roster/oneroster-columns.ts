/**
 * The columns of OneRoster CSV files, in the binding's order, for every side that writes or reads
 * them: the import's readers (the columns a header must have), the export, the 1.2 export, the
 * REST sync's spooled bundle and the benchmark's generated bundle. A file's columns are named here
 * once.
 */

/** roles.csv (OneRoster 1.2 CSV binding, the roles.csv table). */
export const ROLES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'userSourcedId',
  'roleType',
  'role',
  'beginDate',
  'endDate',
  'orgSourcedId',
  'userProfileSourcedId',
] as const;

/**
 * The columns of each file of the OneRoster 1.1 CSV binding the import reads, in the binding's order:
 * the export writes them (with the service's own metadata.* columns after them) and the REST sync
 * writes each record it pulls as a row of them, so that import, export and sync share one list.
 */
export const ONEROSTER_COLUMNS = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type', 'identifier', 'parentSourcedId'],
  academicSessions: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'type',
    'startDate',
    'endDate',
    'parentSourcedId',
    'schoolYear',
  ],
  courses: [
    'sourcedId',
    'status',
    'dateLastModified',
    'schoolYearSourcedId',
    'title',
    'courseCode',
    'grades',
    'orgSourcedId',
    'subjects',
    'subjectCodes',
  ],
  classes: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'grades',
    'courseSourcedId',
    'classCode',
    'classType',
    'location',
    'schoolSourcedId',
    'termSourcedIds',
    'subjects',
    'subjectCodes',
    'periods',
  ],
  users: [
    'sourcedId',
    'status',
    'dateLastModified',
    'enabledUser',
    'orgSourcedIds',
    'role',
    'username',
    'userIds',
    'givenName',
    'familyName',
    'middleName',
    'identifier',
    'email',
    'sms',
    'phone',
    'agentSourcedIds',
    'grades',
  ],
  enrollments: [
    'sourcedId',
    'status',
    'dateLastModified',
    'classSourcedId',
    'schoolSourcedId',
    'userSourcedId',
    'role',
    'primary',
    'beginDate',
    'endDate',
  ],
  demographics: ['sourcedId', 'status', 'dateLastModified', 'birthDate', 'sex'],
  categories: ['sourcedId', 'status', 'dateLastModified', 'title'],
  lineItems: [
    'sourcedId',
    'status',
    'dateLastModified',
    'title',
    'description',
    'assignDate',
    'dueDate',
    'classSourcedId',
    'categorySourcedId',
    'gradingPeriodSourcedId',
    'resultValueMin',
    'resultValueMax',
  ],
  results: [
    'sourcedId',
    'status',
    'dateLastModified',
    'lineItemSourcedId',
    'studentSourcedId',
    'scoreStatus',
    'score',
    'scoreDate',
    'comment',
  ],
} as const satisfies Record<string, readonly string[]>;

export type OneRosterFile = keyof typeof ONEROSTER_COLUMNS;

export type ColumnOf<File extends OneRosterFile> = (typeof ONEROSTER_COLUMNS)[File][number];

/**
 * Some of a file's columns, in the order given, checked against the file's list (the service's own
 * `metadata.*` columns allowed): for a writer of a bundle that has only some of them.
 */
export function columnsOf<File extends OneRosterFile>(
  _file: File,
  columns: readonly (ColumnOf<File> | `metadata.${string}`)[],
): readonly string[] {
  return columns;
}

/**
 * The columns of each file a 1.1 header must have for the import to read the file (a header
 * without one is a `missing-column` problem): the binding's required columns the store needs.
 */
const REQUIRED_11: { readonly [File in OneRosterFile]: readonly ColumnOf<File>[] } = {
  orgs: ['sourcedId', 'name', 'type'],
  academicSessions: ['sourcedId', 'title', 'type', 'startDate', 'endDate', 'schoolYear'],
  courses: ['sourcedId', 'title', 'orgSourcedId'],
  classes: ['sourcedId', 'title', 'courseSourcedId', 'classType', 'schoolSourcedId', 'termSourcedIds'],
  users: ['sourcedId', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'givenName', 'familyName'],
  enrollments: ['sourcedId', 'classSourcedId', 'schoolSourcedId', 'userSourcedId', 'role'],
  demographics: ['sourcedId'],
  categories: ['sourcedId', 'title'],
  lineItems: [
    'sourcedId',
    'title',
    'assignDate',
    'dueDate',
    'classSourcedId',
    'gradingPeriodSourcedId',
    'resultValueMin',
    'resultValueMax',
  ],
  results: ['sourcedId', 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'score', 'scoreDate'],
};

/**
 * The 1.1 columns a 1.2 file need not have (1.2 CSV binding, the users.csv, lineItems.csv and
 * results.csv tables): a 1.2 user's role and orgs come from roles.csv, a lineItem names its
 * sessions in `gradingPeriodSourcedIds` or `academicSessionSourcedIds`, and a result may have a
 * `textScore` instead of a score.
 */
const NOT_REQUIRED_IN_12: { readonly [File in OneRosterFile]?: readonly ColumnOf<File>[] } = {
  users: ['orgSourcedIds', 'role'],
  lineItems: ['gradingPeriodSourcedId'],
  results: ['score'],
};

/** The columns 1.2 adds to files of 1.1, in the binding's order (OneRoster 1.2 CSV binding, each file's table). */
export const ONEROSTER_12_COLUMNS = {
  users: [
    'userMasterIdentifier',
    'resourceSourcedIds',
    'preferredGivenName',
    'preferredMiddleName',
    'preferredFamilyName',
    'primaryOrgSourcedId',
    'pronouns',
    'userProfileSourcedIds',
  ],
  categories: ['weight'],
  lineItems: ['gradingPeriodSourcedIds', 'academicSessionSourcedIds', 'scoreScaleSourcedId', 'learningObjectiveSet'],
  results: [
    'classSourcedId',
    'scoreScaleSourcedId',
    'textScore',
    'learningObjectiveSet',
    'inProgress',
    'incomplete',
    'late',
    'missing',
  ],
} as const satisfies { readonly [File in OneRosterFile]?: readonly string[] };

/** A column 1.2 adds to a file of 1.1. */
export type Column12<File extends keyof typeof ONEROSTER_12_COLUMNS> = (typeof ONEROSTER_12_COLUMNS)[File][number];

/** scoreScales.csv (OneRoster 1.2 CSV binding, the scoreScales.csv table). */
export const SCORE_SCALES_COLUMNS = [
  'sourcedId',
  'status',
  'dateLastModified',
  'title',
  'type',
  'orgSourcedId',
  'courseSourcedId',
  'classSourcedId',
  'scoreScaleValue',
] as const;

/** The files of 1.2 alone, with the columns the import requires of each. */
const REQUIRED_12_ONLY = {
  roles: ['sourcedId', 'userSourcedId', 'roleType', 'role', 'orgSourcedId'],
  scoreScales: ['sourcedId', 'title', 'scoreScaleValue'],
} as const satisfies {
  roles: readonly (typeof ROLES_COLUMNS)[number][];
  scoreScales: readonly (typeof SCORE_SCALES_COLUMNS)[number][];
};

/**
 * Columns vendors write that the binding does not name, read as well: a lineItem's one session in
 * the singular (`academicSessionSourcedId`), a score scale's school as `schoolSourcedId`.
 */
const VENDOR_COLUMNS = {
  lineItems: ['academicSessionSourcedId'],
  scoreScales: ['schoolSourcedId'],
} as const;

/** The files a OneRoster bundle's import reads. */
export type ReadFile = OneRosterFile | keyof typeof REQUIRED_12_ONLY;

/**
 * The columns an import's reader of a file may ask for: the file's own (1.1 and 1.2), the vendors'
 * spellings above and the service's `metadata.*`.
 */
export type ReadColumn<File extends ReadFile> =
  | (File extends OneRosterFile ? ColumnOf<File> : never)
  | (File extends keyof typeof ONEROSTER_12_COLUMNS ? Column12<File> : never)
  | (File extends 'roles' ? (typeof ROLES_COLUMNS)[number] : never)
  | (File extends 'scoreScales' ? (typeof SCORE_SCALES_COLUMNS)[number] : never)
  | (File extends keyof typeof VENDOR_COLUMNS ? (typeof VENDOR_COLUMNS)[File][number] : never)
  | `metadata.${string}`;

/**
 * The columns the import requires of a file's header, for the bundle's OneRoster version; typed
 * as the columns the file's reader may ask for (forEachRow takes its readers' names from it).
 */
export function requiredColumns<File extends ReadFile>(
  file: File,
  version: '1.1' | '1.2',
): readonly ReadColumn<File>[] {
  const wanted = file as ReadFile;
  if (wanted === 'roles' || wanted === 'scoreScales')
    return REQUIRED_12_ONLY[wanted] as readonly string[] as readonly ReadColumn<File>[];
  const required: readonly string[] = REQUIRED_11[wanted];
  const dropped: readonly string[] = version === '1.2' ? (NOT_REQUIRED_IN_12[wanted] ?? []) : [];
  return required.filter((column) => !dropped.includes(column)) as ReadColumn<File>[];
}

/** The columns a version requires of a file, by its name (`users.csv`); none for a file of the service's own. */
export function requiredColumnsOf(fileName: string, version: '1.1' | '1.2'): readonly string[] {
  const base = fileName.replace(/\.csv$/, '');
  const files: readonly string[] = [...Object.keys(REQUIRED_11), ...Object.keys(REQUIRED_12_ONLY)];
  return files.includes(base) ? requiredColumns(base as ReadFile, version) : [];
}
