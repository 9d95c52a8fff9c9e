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

/** How a member of a REST record becomes a CSV cell. */
const CELL = { text, ref, refs, list, date } as const;

/**
 * A column of a CSV file from a member of the REST record: its name in the record (or names, the
 * first non-empty one counting), how it is converted, and whether the column is written only when
 * the record has the member (1.2 additions an import reads when present).
 */
type Column = readonly [column: string, member: string | readonly string[], cell: keyof typeof CELL, when?: 'present'];

/** The files whose rows are their record's members one to one, each column as the binding names it. */
const COLUMNS: Record<Exclude<CollectionName, 'users' | 'demographics'>, readonly Column[]> = {
  orgs: [
    ['name', 'name', 'text'],
    ['type', 'type', 'text'],
    ['identifier', 'identifier', 'text'],
    ['parentSourcedId', 'parent', 'ref'],
  ],
  academicSessions: [
    ['title', 'title', 'text'],
    ['type', 'type', 'text'],
    ['startDate', 'startDate', 'date'],
    ['endDate', 'endDate', 'date'],
    ['parentSourcedId', 'parent', 'ref'],
    ['schoolYear', 'schoolYear', 'text'],
  ],
  courses: [
    ['schoolYearSourcedId', 'schoolYear', 'ref'],
    ['title', 'title', 'text'],
    ['courseCode', 'courseCode', 'text'],
    ['grades', 'grades', 'list'],
    ['orgSourcedId', 'org', 'ref'],
    ['subjects', 'subjects', 'list'],
    ['subjectCodes', 'subjectCodes', 'list'],
  ],
  classes: [
    ['title', 'title', 'text'],
    ['grades', 'grades', 'list'],
    ['courseSourcedId', 'course', 'ref'],
    ['classCode', 'classCode', 'text'],
    ['classType', 'classType', 'text'],
    ['location', 'location', 'text'],
    ['schoolSourcedId', 'school', 'ref'],
    ['termSourcedIds', 'terms', 'refs'],
    ['subjects', 'subjects', 'list'],
    ['subjectCodes', 'subjectCodes', 'list'],
    ['periods', 'periods', 'list'],
  ],
  enrollments: [
    ['classSourcedId', 'class', 'ref'],
    ['schoolSourcedId', 'school', 'ref'],
    ['userSourcedId', 'user', 'ref'],
    ['role', 'role', 'text'],
    ['primary', 'primary', 'text'],
    ['beginDate', 'beginDate', 'date'],
    ['endDate', 'endDate', 'date'],
  ],
  categories: [
    ['title', 'title', 'text'],
    ['weight', 'weight', 'text', 'present'],
  ],
  lineItems: [
    ['title', 'title', 'text'],
    ['description', 'description', 'text'],
    ['assignDate', 'assignDate', 'date'],
    ['dueDate', 'dueDate', 'date'],
    ['classSourcedId', 'class', 'ref'],
    ['categorySourcedId', 'category', 'ref'],
    ['gradingPeriodSourcedId', ['gradingPeriod', 'academicSession'], 'ref'],
    ['resultValueMin', 'resultValueMin', 'text'],
    ['resultValueMax', 'resultValueMax', 'text'],
    ['scoreScaleSourcedId', 'scoreScale', 'ref', 'present'],
  ],
  results: [
    ['lineItemSourcedId', 'lineItem', 'ref'],
    ['studentSourcedId', 'student', 'ref'],
    ['scoreStatus', 'scoreStatus', 'text'],
    ['score', 'score', 'text'],
    ['scoreDate', 'scoreDate', 'date'],
    ['comment', 'comment', 'text'],
    ['textScore', 'textScore', 'text', 'present'],
  ],
};

/** A row of a file of COLUMNS, filled column by column. */
function columnsRow(record: Json, columns: readonly Column[]): Row {
  const row = common(record);
  for (const [column, member, cell, when] of columns) {
    const members = typeof member === 'string' ? [member] : member;
    if (when === 'present' && members.every((name) => record[name] === undefined)) continue;
    let value = '';
    for (const name of members) {
      value = CELL[cell](record[name]);
      if (value !== '') break;
    }
    row[column] = value;
  }
  return row;
}

/** A demographics record: every plain member is a column of the same name. */
function demographicsRow(record: Json): Row {
  const row = common(record);
  for (const [name, value] of Object.entries(record)) {
    if (!(name in row) && name !== 'metadata' && !isObject(value))
      row[name] = name === 'birthDate' ? date(value) : text(value);
  }
  return row;
}

/** The CSV row of a record of `collection`, or undefined for an answer entry that is no record (no sourcedId). */
export function rowOf(collection: CollectionName, record: unknown): Row | undefined {
  if (!isObject(record) || typeof record.sourcedId !== 'string' || record.sourcedId === '') return undefined;
  if (collection === 'users') return userRow(record);
  if (collection === 'demographics') return demographicsRow(record);
  return columnsRow(record, COLUMNS[collection]);
}
