import type { CsvFile } from './csv-file';
import type { FieldReader } from './fields';
import type { Problems } from './problems';

/**
 * Header names of the OneRoster 1.0 CSV binding that 1.1 renamed, by file (1.0 name -> 1.1 name).
 * Bundles written by 1.0-era tools still carry them under a 1.1 manifest; read as what they became,
 * a 1.0 bundle keeps its guardian links (`agents`), terms (`termSourcedId`) and grades (`grade`).
 */
const RENAMED_IN_11: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'users.csv': { userId: 'userIds', agents: 'agentSourcedIds' },
  'courses.csv': { schoolYearId: 'schoolYearSourcedId', grade: 'grades' },
  'classes.csv': { grade: 'grades', termSourcedId: 'termSourcedIds' },
  'demographics.csv': { userSourcedId: 'sourcedId' },
};

/**
 * The file with each 1.0 header name read as its 1.1 column, when the header lacks the 1.1 one,
 * and a warning at each column so read. The names given back are the 1.1 ones, so that what is
 * kept of a row and exported is in 1.1's spelling.
 */
export function readAsOneRoster11(file: CsvFile, fileName: string, problems: Problems): CsvFile {
  const renamed = RENAMED_IN_11[fileName];
  if (!renamed) return file;
  const header = new Map(file.header);
  const names = [...file.names];
  for (const [old, current] of Object.entries(renamed)) {
    const index = file.header.get(old.toLowerCase());
    if (index === undefined || file.header.has(current.toLowerCase())) continue;
    header.delete(old.toLowerCase());
    header.set(current.toLowerCase(), index);
    names[index] = current;
    problems.warn({
      file: fileName,
      line: 1,
      column: index + 1,
      kind: 'oneroster-1-0-header',
      message: `header "${file.names[index]}" is OneRoster 1.0's name of "${current}": read as ${current}`,
    });
  }
  return { ...file, header, names };
}

/**
 * OneRoster 1.0's users.csv: it has no enabledUser column (1.1 added it) and its status may be
 * `inactive`, which 1.1 dropped in favour of enabledUser false. Read as 1.1 has it: a header
 * without the column makes every user enabled, with one warning at the header; an inactive row is
 * an active row of a user not enabled, with a warning at its status. Such a user is imported as
 * any user whose enabledUser is false: the store keeps no account state, and the user's
 * enrolments and marks stay the school's.
 */
export function readEnabledUser(reader: FieldReader<'enabledUser' | 'status'>, warned: { header: boolean }): void {
  if (reader.hasColumn('enabledUser')) reader.oneOf('enabledUser', ['true', 'false'], true);
  else if (!warned.header) {
    warned.header = true;
    reader.warnAt(
      1,
      'enabledUser',
      'oneroster-1-0-enabled-user',
      "the header has no enabledUser column (OneRoster 1.0's users.csv): every user is read as enabled",
    );
  }
  if (reader.raw('status').toLowerCase() !== INACTIVE) return;
  reader.warn(
    'status',
    'oneroster-1-0-status',
    'status "inactive" is OneRoster 1.0\'s: read as 1.1 writes it, status active and enabledUser false ' +
      '(the user is imported, as a user not enabled is)',
  );
}

/** OneRoster 1.0's status of a record that is kept but not in use; users.csv alone reads it (readEnabledUser). */
export const INACTIVE = 'inactive';

/**
 * The fields kept of a row (for export to give back), in 1.1's terms: a user of a 1.0 users.csv
 * is kept with enabledUser (false for an inactive one, as its status is kept active), so that the
 * export is a 1.1 bundle, given-back rows (an administrator's) included.
 */
export function keptAsOneRoster11(fileName: string, fields: Record<string, string>): Record<string, string> {
  if (fileName !== 'users.csv') return fields;
  const named = (column: string) => Object.keys(fields).find((name) => name.toLowerCase() === column.toLowerCase());
  const status = named('status');
  if (status === undefined || fields[status].trim().toLowerCase() !== INACTIVE) {
    return named('enabledUser') === undefined ? { ...fields, enabledUser: 'true' } : fields;
  }
  const kept = Object.fromEntries(
    Object.entries(fields).filter(([name]) => !['status', 'enableduser'].includes(name.toLowerCase())),
  );
  return { ...kept, status: 'active', enabledUser: 'false' };
}
