import type { CollectionName } from './collections';

/**
 * One OneRoster REST record (JSON, 1.1 or 1.2) as the row of the matching CSV file: references
 * (`{sourcedId, href, type}`) become their sourcedId, lists of them a comma-separated list
 * (`orgs` -> `orgSourcedIds`), arrays of strings a list, `metadata` one `metadata.NAME` column a
 * member, dates the CSV binding's YYYY-MM-DD. A 1.2 user's `roles` give the 1.1 `role` and
 * `orgSourcedIds` as well (its primary role), and the rows of roles.csv. Values the binding's CSV
 * has no column for are left out; a password is never kept.
 */
export type Row = Record<string, string>;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const ref = (value: unknown): string => (isObject(value) ? text(value.sourcedId) : '');
const refs = (value: unknown): string => (Array.isArray(value) ? value.map(ref).filter(Boolean).join(',') : '');
const list = (value: unknown): string => (Array.isArray(value) ? value.map(text).join(',') : text(value));

/** A date or date-time of the REST binding as the CSV binding's date. */
function date(value: unknown): string {
  const raw = text(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(raw) ? raw.slice(0, 10) : raw;
}

function common(record: Json): Row {
  const row: Row = {
    sourcedId: text(record.sourcedId),
    status: text(record.status),
    dateLastModified: text(record.dateLastModified),
  };
  if (isObject(record.metadata)) {
    for (const [name, value] of Object.entries(record.metadata)) row[`metadata.${name}`] = text(value);
  }
  return row;
}

/** The roles of a 1.2 user with the administrators' kinds folded into the 1.1 role the import knows. */
const ADMINISTRATORS = ['districtAdministrator', 'siteAdministrator', 'systemAdministrator', 'principal'];
const roleOf = (role: string) => (ADMINISTRATORS.includes(role) ? 'administrator' : role);

function userRow(record: Json): Row {
  const roles = Array.isArray(record.roles) ? record.roles.filter(isObject) : [];
  const primary = roles.find((role) => role.roleType === 'primary') ?? roles[0];
  const orgs = refs(record.orgs) || [...new Set(roles.map((role) => ref(role.org)).filter(Boolean))].join(',');
  const userIds = Array.isArray(record.userIds)
    ? record.userIds.filter(isObject).map((id) => `{${text(id.type)}:${text(id.identifier)}}`)
    : [];
  const row: Row = {
    ...common(record),
    enabledUser: text(record.enabledUser),
    orgSourcedIds: orgs,
    role: record.role !== undefined ? text(record.role) : roleOf(text(primary?.role)),
    username: text(record.username),
    userIds: userIds.join(','),
    givenName: text(record.givenName),
    familyName: text(record.familyName),
    middleName: text(record.middleName),
    identifier: text(record.identifier),
    email: text(record.email),
    sms: text(record.sms),
    phone: text(record.phone),
    agentSourcedIds: refs(record.agents),
    grades: list(record.grades),
  };
  // 1.2's own columns, for an import that reads them.
  const extra: Array<[string, unknown]> = [
    ['userMasterIdentifier', record.userMasterIdentifier],
    ['preferredGivenName', record.preferredFirstName ?? record.preferredGivenName],
    ['preferredMiddleName', record.preferredMiddleName],
    ['preferredFamilyName', record.preferredLastName ?? record.preferredFamilyName],
    ['pronouns', record.pronouns],
  ];
  for (const [column, value] of extra) if (value !== undefined) row[column] = text(value);
  if (record.primaryOrg !== undefined) row.primaryOrgSourcedId = ref(record.primaryOrg);
  return row;
}

/** roles.csv of the 1.2 CSV binding: one row a role of a user. */
export function roleRows(record: Json): Row[] {
  const roles = Array.isArray(record.roles) ? record.roles.filter(isObject) : [];
  const user = text(record.sourcedId);
  return roles.map((role, index) => ({
    sourcedId: `${user}-role-${index + 1}`,
    status: text(record.status),
    dateLastModified: text(record.dateLastModified),
    userSourcedId: user,
    roleType: text(role.roleType),
    role: text(role.role),
    beginDate: date(role.beginDate),
    endDate: date(role.endDate),
    orgSourcedId: ref(role.org),
    userProfileSourcedId: text(role.userProfile),
  }));
}

const MAPPINGS: Record<CollectionName, (record: Json) => Row> = {
  orgs: (record) => ({
    ...common(record),
    name: text(record.name),
    type: text(record.type),
    identifier: text(record.identifier),
    parentSourcedId: ref(record.parent),
  }),
  academicSessions: (record) => ({
    ...common(record),
    title: text(record.title),
    type: text(record.type),
    startDate: date(record.startDate),
    endDate: date(record.endDate),
    parentSourcedId: ref(record.parent),
    schoolYear: text(record.schoolYear),
  }),
  courses: (record) => ({
    ...common(record),
    schoolYearSourcedId: ref(record.schoolYear),
    title: text(record.title),
    courseCode: text(record.courseCode),
    grades: list(record.grades),
    orgSourcedId: ref(record.org),
    subjects: list(record.subjects),
    subjectCodes: list(record.subjectCodes),
  }),
  classes: (record) => ({
    ...common(record),
    title: text(record.title),
    grades: list(record.grades),
    courseSourcedId: ref(record.course),
    classCode: text(record.classCode),
    classType: text(record.classType),
    location: text(record.location),
    schoolSourcedId: ref(record.school),
    termSourcedIds: refs(record.terms),
    subjects: list(record.subjects),
    subjectCodes: list(record.subjectCodes),
    periods: list(record.periods),
  }),
  users: userRow,
  enrollments: (record) => ({
    ...common(record),
    classSourcedId: ref(record.class),
    schoolSourcedId: ref(record.school),
    userSourcedId: ref(record.user),
    role: text(record.role),
    primary: text(record.primary),
    beginDate: date(record.beginDate),
    endDate: date(record.endDate),
  }),
  demographics: (record) => {
    const row = common(record);
    for (const [name, value] of Object.entries(record)) {
      if (!(name in row) && name !== 'metadata' && !isObject(value))
        row[name] = name === 'birthDate' ? date(value) : text(value);
    }
    return row;
  },
  categories: (record) => ({
    ...common(record),
    title: text(record.title),
    ...(record.weight !== undefined ? { weight: text(record.weight) } : {}),
  }),
  lineItems: (record) => ({
    ...common(record),
    title: text(record.title),
    description: text(record.description),
    assignDate: date(record.assignDate),
    dueDate: date(record.dueDate),
    classSourcedId: ref(record.class),
    categorySourcedId: ref(record.category),
    gradingPeriodSourcedId: ref(record.gradingPeriod) || ref(record.academicSession),
    resultValueMin: text(record.resultValueMin),
    resultValueMax: text(record.resultValueMax),
    ...(record.scoreScale !== undefined ? { scoreScaleSourcedId: ref(record.scoreScale) } : {}),
  }),
  results: (record) => ({
    ...common(record),
    lineItemSourcedId: ref(record.lineItem),
    studentSourcedId: ref(record.student),
    scoreStatus: text(record.scoreStatus),
    score: text(record.score),
    scoreDate: date(record.scoreDate),
    comment: text(record.comment),
    ...(record.textScore !== undefined ? { textScore: text(record.textScore) } : {}),
  }),
};

/** The CSV row of a record of `collection`, or undefined for an answer entry that is no record (no sourcedId). */
export function rowOf(collection: CollectionName, record: unknown): Row | undefined {
  if (!isObject(record) || typeof record.sourcedId !== 'string' || record.sourcedId === '') return undefined;
  return MAPPINGS[collection](record);
}
