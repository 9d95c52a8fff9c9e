import { phoneNumberE164, regionOfCallingCode } from '../../lib/phone-number';
import type { SchoolTableName } from '../../store/roster/school-tables';
import type { BundleReading } from '../bundle-reading';
import type { FieldReader } from '../fields';
import { type ImportContext, readerOf } from '../import-context';
import { linksNamedByUnlisted } from '../kept-links';
import { readEnabledUser } from '../oneroster-10-names';
import { checkOrg, ofOtherSchool } from '../org-references';
import { assignIds, type BundleFile, forEachRow, type RowStart, rowStart, takeRow } from '../read-file';
import { type Entry, USER_TABLES } from '../roster-book';
import type { SchoolSnapshot } from '../school-snapshot';
import {
  commonCells,
  type CsvRecord,
  type GuardianLink,
  type MetadataColumn,
  type OneRosterCollection,
  type RowsOf,
  requiredIn,
  type StoredRowOf,
  schoolSourcedId,
  sourcedIdOf,
  storedRows,
} from './collection';
import { isObject, type Json, ref, refs, restCommon, type Row, text } from './rest-cells';

/**
 * users.csv: students, teachers and guardians (parent, guardian and relative), each guardian's
 * students named as its agents, the names in both languages and a guardian's relation in
 * metadata.*. Administrators, aides and proctors have no place in the store and are passed over.
 * A user's name is its given, middle and family names (metadata.nameAr, when present, is the name
 * exactly as the store keeps it; metadata.nameEn its English form). phone, else sms, is the phone
 * number (see phoneOf). A student's agentSourcedIds name its guardians and a guardian's its
 * children; the links are the union, each with the guardian's metadata.relation (else its role).
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

/** The columns 1.2 adds to users.csv, in the binding's order. */
const USERS_12_COLUMNS = [
  'userMasterIdentifier',
  'resourceSourcedIds',
  'preferredGivenName',
  'preferredMiddleName',
  'preferredFamilyName',
  'primaryOrgSourcedId',
  'pronouns',
  'userProfileSourcedIds',
] as const;

type ReadColumn = Column | (typeof USERS_12_COLUMNS)[number] | MetadataColumn;

/** A name as given and family names: the last word is the family name. */
function splitName(name: string): [given: string, family: string] {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return [name, name];
  return [words.slice(0, -1).join(' '), words[words.length - 1]];
}

const GUARDIAN_ROLES: readonly string[] = ['parent', 'guardian', 'relative'];

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
    ...commonCells(school, table, row),
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
const ADMINISTRATORS = ['districtAdministrator', 'siteAdministrator', 'systemAdministrator', 'principal'] as const;
const roleOf = (role: string) => ((ADMINISTRATORS as readonly string[]).includes(role) ? 'administrator' : role);
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
  import: { fills: USER_TABLES, read: readUsers },
  export: {
    reads: { whole: ['students', 'teachers', 'guardians', 'schools'] },
    header: [...USERS_COLUMNS, 'metadata.nameAr', 'metadata.nameEn', 'metadata.relation', 'metadata.contractId'],
    rows: ({ school, links }) => exportedUsers(school, links),
  },
  fromRest: userFromRest,
} as const satisfies OneRosterCollection<'users', Column>;

const ROLES = ['administrator', 'aide', 'guardian', 'parent', 'proctor', 'relative', 'student', 'teacher'] as const;
/** The roles OneRoster 1.2 adds; none has a place in the store. */
const V12_ROLES = [...ADMINISTRATORS, 'counselor'] as const;

function tableOfRole(role: string | undefined): UserTable | undefined {
  if (role === 'student') return 'students';
  if (role === 'teacher') return 'teachers';
  return role && GUARDIAN_ROLES.includes(role) ? 'guardians' : undefined;
}

/** The agents each user named, to link once every user is read. */
type Agents = Map<Entry, { line: number; agents: string[]; relation: string }>;

/** A 1.2 bundle's users take their role and orgs from roles.csv (roles.ts). */
async function readUsers({ context, roles }: BundleReading, file: BundleFile): Promise<void> {
  const agents: Agents = new Map();
  // OneRoster 1.0 has no enabledUser column: its users are read as enabled (readEnabledUser).
  const required = requiredIn(users, roles ? '1.2' : '1.1').filter((column) => column !== 'enabledUser');
  const warned = { header: false };
  const present = await forEachRow<ReadColumn>(context, file, required, (reader) => {
    if (roles) {
      const found = roles.get(reader.raw('sourcedId'));
      const orgs = new Set([reader.raw('primaryOrgSourcedId'), ...(found?.orgs ?? [])].filter(Boolean));
      reader.give(
        new Map([
          ['role', found?.role ?? ''],
          ['orgSourcedIds', [...orgs].join(',')],
        ]),
      );
    }
    const start = rowStart(context, reader, USER_TABLES, 'metadata.contractId', true);
    if (!start || ofOtherSchool(context, reader, 'orgSourcedIds', USER_TABLES, start.sourcedId)) return;
    const role = reader.oneOf('role', roles ? [...ROLES, ...V12_ROLES] : ROLES, true);
    const table = tableOfRole(role);
    readEnabledUser(reader, warned);
    reader.required('username');
    checkOrg(context, reader, 'orgSourcedIds');
    const names = (['givenName', 'middleName', 'familyName'] as const).map((column) =>
      reader.text(column, { required: column !== 'middleName' }),
    );
    const nameAr = reader.text('metadata.nameAr') || names.filter((name) => name !== '').join(' ');
    const phone = phoneOf(context, reader);
    if (!table) {
      // A role the store has no place for is passed over; a row that is wrong may be any user a later row names.
      if (!reader.ok) for (const userTable of USER_TABLES) context.book.markInvalid(userTable, start.sourcedId, reader);
      return;
    }
    const entry = takeUser(context, reader, start, table, { nameAr, phone });
    const grade = reader.list('grades')[0];
    if (entry && table === 'students' && grade) context.userGrades.set(start.sourcedId, grade);
    if (entry) {
      agents.set(entry, {
        line: reader.line,
        agents: reader.list('agentSourcedIds'),
        relation: reader.text('metadata.relation') || role || '',
      });
    }
  });
  // A delta bundle may leave users.csv out: then no user is new and no link changes.
  if (!present) return;
  for (const table of USER_TABLES) assignIds(context, table);
  linkGuardians(context, agents);
  if (context.mode === 'delta') context.links.push(...(await linksNamedByUnlisted(context, new Set(agents.keys()))));
}

/** Takes a user's row into its table: a student's, a teacher's or a guardian's. */
function takeUser(
  context: ImportContext,
  reader: FieldReader<ReadColumn>,
  start: RowStart,
  table: UserTable,
  { nameAr, phone }: { nameAr: string; phone: string | undefined },
): Entry | undefined {
  const name = { name_ar: nameAr, name_en: reader.text('metadata.nameEn') || nameAr };
  if (table !== 'students') {
    return takeRow(context, reader, table, start, { ...name, phone: phone ?? '' }, claimOf(context, reader, start));
  }
  // demographics.csv gives these; a delta that changes the user alone keeps what the store has.
  const stored = context.book.find('students', start.sourcedId)?.row;
  return takeRow(
    context,
    reader,
    'students',
    start,
    { ...name, phone: phone ?? null, gender: stored?.gender ?? '', birth_date: stored?.birth_date ?? '' },
    claimOf(context, reader, start),
  );
}

/** The longest phone number kept as written: E.164 has 15 digits; room for spaces, dashes and an extension. */
const MAX_PHONE_LENGTH = 64;

/**
 * phone, else sms: in E.164 when it is a valid number for the school's region; any other (a
 * foreign number written without its country code, a malformed one) is kept as written, with a
 * warning at its row, and never texted (AuthCode sends to E.164 numbers only). The warning does not
 * repeat the number, as import warnings reach the service's log when a sync writes them.
 */
function phoneOf(context: ImportContext, reader: FieldReader): string | undefined {
  const column = reader.raw('phone') ? 'phone' : 'sms';
  const text = reader.text(column, { max: MAX_PHONE_LENGTH });
  if (text === '') return undefined;
  const number = phoneNumberE164(text, context.defaultCountryCode);
  if (number) return number;
  const region = regionOfCallingCode(context.defaultCountryCode) ?? '';
  reader.warn(
    column,
    'phone-kept-as-written',
    `${column} is no valid number for the school's region (${region}, DEFAULT_COUNTRY_CODE ` +
      `${context.defaultCountryCode}): kept as written, never texted`,
  );
  return text;
}

/** Under --ids from-identifier: the user's identifier, or its sourcedId, when it is a whole number. */
function claimOf(context: ImportContext, reader: FieldReader<ReadColumn>, { sourcedId }: RowStart): Entry['claim'] {
  if (!context.fromIdentifier) return undefined;
  for (const [column, value] of [
    ['identifier', reader.raw('identifier')],
    ['sourcedId', sourcedId],
  ] as const) {
    if (/^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) < 2 ** 31) {
      return { id: Number(value), column, pinned: false };
    }
  }
  return undefined;
}

/** The guardian links, each pair once; the student's and the guardian's agent lists are both read. */
function linkGuardians(context: ImportContext, agents: Agents): void {
  const { book } = context;
  const reader = readerOf(context, 'users.csv');
  const links = new Map<string, { student: Entry; guardian: Entry; relation: string }>();
  for (const [user, { line, agents: named, relation }] of agents) {
    // Only a student's and a guardian's agents are family; a teacher's name no child of theirs.
    if (user.table === 'teachers' || !book.find(user.table, user.sourcedId)) continue;
    for (const agent of named) {
      const other = user.table === 'guardians' ? book.find('students', agent) : book.find('guardians', agent);
      if (!other) {
        if (!USER_TABLES.some((table) => book.find(table, agent) || book.isLeftOut(table, agent))) {
          const cause = book.missingCause(USER_TABLES, agent);
          if (cause.invalidAt) {
            reader.failAt(
              line,
              'agentSourcedIds',
              'depends-on-invalid',
              `user "${agent}" is the invalid row at ${cause.invalidAt}`,
            );
          } else {
            const names = `agentSourcedIds "${agent}" names no user in the bundle${cause.detail}`;
            reader.failAt(line, 'agentSourcedIds', 'unknown-reference', names);
          }
        }
        continue;
      }
      const [student, guardian] = user.table === 'guardians' ? [other, user] : [user, other];
      // A guardian the delta does not list keeps the relation the store has (the student's role is none).
      const guardianRelation =
        agents.get(guardian)?.relation ??
        context.storedRelations.get(`${student.id} ${guardian.id}`) ??
        (user.table === 'guardians' ? relation : 'parent');
      links.set(`${student.sourcedId} ${guardian.sourcedId}`, { student, guardian, relation: guardianRelation });
    }
  }
  context.links.push(...links.values());
}
