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
  // Filled field by field: spreading a row into a literal costs ten times as much, a million times over.
  const row = common(record);
  row.enabledUser = text(record.enabledUser);
  row.orgSourcedIds = orgs;
  row.role = record.role !== undefined ? text(record.role) : roleOf(text(primary?.role));
  row.username = text(record.username);
  row.userIds = userIds.join(',');
  row.givenName = text(record.givenName);
  row.familyName = text(record.familyName);
  row.middleName = text(record.middleName);
  row.identifier = text(record.identifier);
  row.email = text(record.email);
  row.sms = text(record.sms);
  row.phone = text(record.phone);
  row.agentSourcedIds = refs(record.agents);
  row.grades = list(record.grades);
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
  orgs: (record) => {
    const row = common(record);
    row.name = text(record.name);
    row.type = text(record.type);
    row.identifier = text(record.identifier);
    row.parentSourcedId = ref(record.parent);
    return row;
  },
  academicSessions: (record) => {
    const row = common(record);
    row.title = text(record.title);
    row.type = text(record.type);
    row.startDate = date(record.startDate);
    row.endDate = date(record.endDate);
    row.parentSourcedId = ref(record.parent);
    row.schoolYear = text(record.schoolYear);
    return row;
  },
  courses: (record) => {
    const row = common(record);
    row.schoolYearSourcedId = ref(record.schoolYear);
    row.title = text(record.title);
    row.courseCode = text(record.courseCode);
    row.grades = list(record.grades);
    row.orgSourcedId = ref(record.org);
    row.subjects = list(record.subjects);
    row.subjectCodes = list(record.subjectCodes);
    return row;
  },
  classes: (record) => {
    const row = common(record);
    row.title = text(record.title);
    row.grades = list(record.grades);
    row.courseSourcedId = ref(record.course);
    row.classCode = text(record.classCode);
    row.classType = text(record.classType);
    row.location = text(record.location);
    row.schoolSourcedId = ref(record.school);
    row.termSourcedIds = refs(record.terms);
    row.subjects = list(record.subjects);
    row.subjectCodes = list(record.subjectCodes);
    row.periods = list(record.periods);
    return row;
  },
  users: userRow,
  enrollments: (record) => {
    const row = common(record);
    row.classSourcedId = ref(record.class);
    row.schoolSourcedId = ref(record.school);
    row.userSourcedId = ref(record.user);
    row.role = text(record.role);
    row.primary = text(record.primary);
    row.beginDate = date(record.beginDate);
    row.endDate = date(record.endDate);
    return row;
  },
  demographics: (record) => {
    const row = common(record);
    for (const [name, value] of Object.entries(record)) {
      if (!(name in row) && name !== 'metadata' && !isObject(value))
        row[name] = name === 'birthDate' ? date(value) : text(value);
    }
    return row;
  },
  categories: (record) => {
    const row = common(record);
    row.title = text(record.title);
    if (record.weight !== undefined) row.weight = text(record.weight);
    return row;
  },
  lineItems: (record) => {
    const row = common(record);
    row.title = text(record.title);
    row.description = text(record.description);
    row.assignDate = date(record.assignDate);
    row.dueDate = date(record.dueDate);
    row.classSourcedId = ref(record.class);
    row.categorySourcedId = ref(record.category);
    row.gradingPeriodSourcedId = ref(record.gradingPeriod) || ref(record.academicSession);
    row.resultValueMin = text(record.resultValueMin);
    row.resultValueMax = text(record.resultValueMax);
    if (record.scoreScale !== undefined) row.scoreScaleSourcedId = ref(record.scoreScale);
    return row;
  },
  results: (record) => {
    const row = common(record);
    row.lineItemSourcedId = ref(record.lineItem);
    row.studentSourcedId = ref(record.student);
    row.scoreStatus = text(record.scoreStatus);
    row.score = text(record.score);
    row.scoreDate = date(record.scoreDate);
    row.comment = text(record.comment);
    if (record.textScore !== undefined) row.textScore = text(record.textScore);
    return row;
  },
};

/** The CSV row of a record of `collection`, or undefined for an answer entry that is no record (no sourcedId). */
export function rowOf(collection: CollectionName, record: unknown): Row | undefined {
  if (!isObject(record) || typeof record.sourcedId !== 'string' || record.sourcedId === '') return undefined;
  return MAPPINGS[collection](record);
}
