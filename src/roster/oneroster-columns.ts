/**
 * The columns of OneRoster CSV files, in the binding's order, for every side that writes or reads
 * them (the 1.2 export, the REST sync's spooled bundle, the roles reader's required columns).
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
