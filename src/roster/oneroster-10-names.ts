import type { CsvFile } from './csv-file';
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
