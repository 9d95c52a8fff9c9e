import type { SchoolTableName } from '../../store/roster/school-tables';
import type { SchoolSnapshot } from '../school-snapshot';
import {
  commonCells,
  type CsvRecord,
  type GuardianLink,
  type MetadataColumn,
  type OneRosterCollection,
  type RowsOf,
  type StoredRowOf,
  schoolSourcedId,
  sourcedIdOf,
  storedRows,
} from './collection';
import { isObject, type Json, ref, refs, restCommon, type Row, text } from './rest-cells';

/**
 * users.csv: students, teachers and guardians, each guardian's students named as its agents, the
 * names in both languages and a guardian's relation in metadata.* (import: user-files.ts, readUsers).
 */
export const USERS_COLUMNS = [
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
] as const;

type Column = (typeof USERS_COLUMNS)[number];

/** A name as given and family names: the last word is the family name. */
function splitName(name: string): [given: string, family: string] {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return [name, name];
  return [words.slice(0, -1).join(' '), words[words.length - 1]];
}

const GUARDIAN_ROLES = ['parent', 'guardian', 'relative'];

type UserTable = Extract<SchoolTableName, 'students' | 'teachers' | 'guardians'>;

function userRow(
  school: SchoolSnapshot,
  table: UserTable,
  row: StoredRowOf<UserTable>,
  user: { role: string; agents: readonly string[]; relation: string },
): CsvRecord<Column | MetadataColumn> {
  const sourcedId = sourcedIdOf(school, table, row);
  const [given, family] = splitName(String(row.name_ar));
  return {
    ...commonCells(school, table, row),
    enabledUser: 'true',
    orgSourcedIds: schoolSourcedId(school),
    role: user.role,
    username: sourcedId,
    givenName: given,
    familyName: family,
    identifier: row.id,
    phone: row.phone ?? '',
    agentSourcedIds: user.agents.join(','),
    'metadata.nameAr': row.name_ar,
    'metadata.nameEn': row.name_en,
    'metadata.relation': user.relation,
    'metadata.contractId': row.id,
  };
}

function* exportedUsers(school: SchoolSnapshot, links: readonly GuardianLink[]): RowsOf<Column> {
  const guardiansOf = new Map<number, string[]>();
  const relationOf = new Map<number, string>();
  for (const link of links) {
    guardiansOf.set(link.student_id, [
      ...(guardiansOf.get(link.student_id) ?? []),
      school.ref('guardians', link.guardian_id),
    ]);
    if (!relationOf.has(link.guardian_id)) relationOf.set(link.guardian_id, link.relation);
  }
  for (const row of storedRows(school, 'students'))
    yield userRow(school, 'students', row, { role: 'student', agents: guardiansOf.get(row.id) ?? [], relation: '' });
  for (const row of storedRows(school, 'teachers'))
    yield userRow(school, 'teachers', row, { role: 'teacher', agents: [], relation: '' });
  for (const row of storedRows(school, 'guardians')) {
    const relation = relationOf.get(row.id) ?? 'guardian';
    const role = GUARDIAN_ROLES.includes(relation) ? relation : 'parent';
    yield userRow(school, 'guardians', row, { role, agents: [], relation });
  }
}

/** The roles of a 1.2 user with the administrators' kinds folded into the 1.1 role the import knows. */
const ADMINISTRATORS = ['districtAdministrator', 'siteAdministrator', 'systemAdministrator', 'principal'];
const roleOf = (role: string) => (ADMINISTRATORS.includes(role) ? 'administrator' : role);
const list = (value: unknown): string => (Array.isArray(value) ? value.map(text).join(',') : text(value));

/** A REST user: a 1.2 user's `roles` give the 1.1 `role` (its primary role) and `orgSourcedIds` as well. */
function userFromRest(record: Json): Row {
  const roles = Array.isArray(record.roles) ? record.roles.filter(isObject) : [];
  const primary = roles.find((role) => role.roleType === 'primary') ?? roles[0];
  const orgs = refs(record.orgs) || [...new Set(roles.map((role) => ref(role.org)).filter(Boolean))].join(',');
  const userIds = Array.isArray(record.userIds)
    ? record.userIds.filter(isObject).map((id) => `{${text(id.type)}:${text(id.identifier)}}`)
    : [];
  // Filled field by field: spreading a row into a literal costs ten times as much, a million times over.
  const row = restCommon(record);
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

export const users = {
  name: 'users',
  service: 'rostering',
  columns: USERS_COLUMNS,
  required: ['sourcedId', 'enabledUser', 'orgSourcedIds', 'role', 'username', 'givenName', 'familyName'],
  notRequiredIn12: ['orgSourcedIds', 'role'],
  export: {
    header: [...USERS_COLUMNS, 'metadata.nameAr', 'metadata.nameEn', 'metadata.relation', 'metadata.contractId'],
    rows: ({ school, links }) => exportedUsers(school, links),
  },
  fromRest: userFromRest,
} as const satisfies OneRosterCollection<'users', Column>;
