import { requiredColumns } from './oneroster-columns';
import { phoneNumberE164, regionOfCallingCode } from '../lib/phone-number';
import type { SchoolTableName } from '../store/roster/school-tables';
import { checkOrg, ofOtherSchool } from './class-files';
import type { UserRoles } from './roles-file';
import type { FieldReader } from './fields';
import { type ImportContext, readerOf } from './import-context';
import { assignIds, forEachRow, rowStart, takeRow } from './read-file';
import { type Entry, USER_TABLES } from './roster-book';
import { linksNamedByUnlisted } from './kept-links';
import { readEnabledUser } from './oneroster-10-names';

/**
 * users.csv -> students, teachers and guardians (parent, guardian and relative); administrators,
 * aides and proctors have no place in the store and are passed over. A user's name is its given,
 * middle and family names (metadata.nameAr, when present, is the name exactly as the store keeps
 * it; metadata.nameEn its English form). phone, else sms, is the phone number (see phoneOf). A
 * student's agentSourcedIds name its guardians and a guardian's its children; the links are the
 * union, each with the guardian's metadata.relation (else its role).
 * demographics.csv -> a student's birth date and sex.
 */

const ROLES = ['administrator', 'aide', 'guardian', 'parent', 'proctor', 'relative', 'student', 'teacher'] as const;
/** The roles OneRoster 1.2 adds; none has a place in the store. */
const V12_ROLES = [
  'districtAdministrator',
  'siteAdministrator',
  'systemAdministrator',
  'principal',
  'counselor',
] as const;
const GUARDIAN_ROLES: readonly string[] = ['guardian', 'parent', 'relative'];

function tableOfRole(role: string | undefined): SchoolTableName | undefined {
  if (role === 'student') return 'students';
  if (role === 'teacher') return 'teachers';
  return role && GUARDIAN_ROLES.includes(role) ? 'guardians' : undefined;
}

/** The agents each user named, to link once every user is read. */
type Agents = Map<Entry, { line: number; agents: string[]; relation: string }>;

/** `roles`: for a OneRoster 1.2 bundle, each user's role and orgs from roles.csv. */
export async function readUsers(context: ImportContext, roles?: ReadonlyMap<string, UserRoles>): Promise<void> {
  const agents: Agents = new Map();
  // OneRoster 1.0 has no enabledUser column: its users are read as enabled (readEnabledUser).
  const required = requiredColumns('users', roles ? '1.2' : '1.1').filter((column) => column !== 'enabledUser');
  const warned = { header: false };
  const present = await forEachRow(context, 'users.csv', required, (reader) => {
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
    const row: Record<string, unknown> = {
      name_ar: nameAr,
      name_en: reader.text('metadata.nameEn') || nameAr,
      phone: phone ?? (table === 'students' ? null : ''),
    };
    if (table === 'students') {
      // demographics.csv gives these; a delta that changes the user alone keeps what the store has.
      const stored = context.book.find('students', start.sourcedId)?.row;
      Object.assign(row, { gender: stored?.gender ?? '', birth_date: stored?.birth_date ?? '' });
    }
    const entry = takeRow(context, reader, table, start, row, claimOf(context, reader, start.sourcedId));
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
function claimOf(context: ImportContext, reader: FieldReader, sourcedId: string): Entry['claim'] {
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

export async function readDemographics(context: ImportContext): Promise<void> {
  await forEachRow(context, 'demographics.csv', requiredColumns('demographics', context.version), (reader) => {
    const start = rowStart(context, reader, 'students', 'metadata.contractId');
    if (!start) return;
    const birthDate = reader.date('birthDate', false);
    const sex = reader.oneOf('sex', ['male', 'female', 'other', 'unspecified'], false);
    const user = context.book.resolve(reader, 'sourcedId', USER_TABLES, start.sourcedId, 'user');
    const student = user?.table === 'students' ? user : undefined;
    if (!reader.ok || !student) return;
    const columns = {
      gender: { male: 'M', female: 'F', other: 'O', unspecified: '' }[sex ?? 'unspecified'],
      birth_date: birthDate ?? '',
    };
    if (student.row && student.line > 0) Object.assign(student.row, columns);
    else context.patches.push({ table: 'students', id: student.id, columns });
  });
}
