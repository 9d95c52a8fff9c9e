/**
 * The OneRoster collections the import reads, each with where the REST binding serves it (the
 * rostering or the gradebook service), the key of its records in the JSON answer, and the columns
 * of the matching CSV file of the OneRoster CSV binding. The REST reader writes each record as a
 * row of those columns, so that the import reads a sync exactly as it reads an exported bundle.
 */
export type CollectionName =
  | 'orgs'
  | 'academicSessions'
  | 'courses'
  | 'classes'
  | 'users'
  | 'enrollments'
  | 'demographics'
  | 'categories'
  | 'lineItems'
  | 'results';

export interface Collection {
  readonly name: CollectionName;
  readonly service: 'rostering' | 'gradebook';
  /** The CSV columns every file has, whether or not a record fills them (the import checks the header). */
  readonly columns: readonly string[];
}

const COMMON = ['sourcedId', 'status', 'dateLastModified'];

/** In the order the import reads them; results, the largest, last. */
export const COLLECTIONS: readonly Collection[] = [
  { name: 'orgs', service: 'rostering', columns: [...COMMON, 'name', 'type', 'identifier', 'parentSourcedId'] },
  {
    name: 'academicSessions',
    service: 'rostering',
    columns: [...COMMON, 'title', 'type', 'startDate', 'endDate', 'parentSourcedId', 'schoolYear'],
  },
  {
    name: 'courses',
    service: 'rostering',
    columns: [
      ...COMMON,
      'schoolYearSourcedId',
      'title',
      'courseCode',
      'grades',
      'orgSourcedId',
      'subjects',
      'subjectCodes',
    ],
  },
  {
    name: 'classes',
    service: 'rostering',
    columns: [
      ...COMMON,
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
  },
  {
    name: 'users',
    service: 'rostering',
    columns: [
      ...COMMON,
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
  },
  {
    name: 'enrollments',
    service: 'rostering',
    columns: [
      ...COMMON,
      'classSourcedId',
      'schoolSourcedId',
      'userSourcedId',
      'role',
      'primary',
      'beginDate',
      'endDate',
    ],
  },
  { name: 'demographics', service: 'rostering', columns: [...COMMON, 'birthDate', 'sex'] },
  { name: 'categories', service: 'gradebook', columns: [...COMMON, 'title'] },
  {
    name: 'lineItems',
    service: 'gradebook',
    columns: [
      ...COMMON,
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
  },
  {
    name: 'results',
    service: 'gradebook',
    columns: [...COMMON, 'lineItemSourcedId', 'studentSourcedId', 'scoreStatus', 'score', 'scoreDate', 'comment'],
  },
];
