import type { ImportContext } from './import-context';
import type { Entry } from './roster-book';

/**
 * A delta's guardian links to users it does not list. A bulk import links a student and a guardian
 * when either's agentSourcedIds names the other; a delta restates the links of each user it lists
 * from the rows it has, so a stored link the unlisted side's own row names must be kept too. That
 * row is the users.csv row the store kept (roster_fields): its agentSourcedIds decide.
 */
export async function linksNamedByUnlisted(
  context: ImportContext,
  listed: ReadonlySet<Entry>,
): Promise<Array<{ student: Entry; guardian: Entry; relation: string }>> {
  const { book } = context;
  const byId = (table: 'students' | 'guardians') => new Map(book.all(table).map((entry) => [entry.id, entry]));
  const students = byId('students');
  const guardians = byId('guardians');
  const linked = new Set(context.links.map((link) => `${link.student.sourcedId} ${link.guardian.sourcedId}`));
  const candidates: Array<{ student: Entry; guardian: Entry; relation: string; listedSide: Entry; other: Entry }> = [];
  for (const [pair, relation] of context.storedRelations) {
    const [studentId, guardianId] = pair.split(' ').map(Number);
    const student = students.get(studentId);
    const guardian = guardians.get(guardianId);
    if (!student || !guardian || listed.has(student) === listed.has(guardian)) continue;
    if (linked.has(`${student.sourcedId} ${guardian.sourcedId}`)) continue;
    const [listedSide, other] = listed.has(student) ? [student, guardian] : [guardian, student];
    candidates.push({ student, guardian, relation, listedSide, other });
  }
  if (candidates.length === 0) return [];
  const kept = await context.keptRows('users.csv', [...new Set(candidates.map(({ other }) => other.sourcedId))]);
  return candidates
    .filter(({ listedSide, other }) => agentsOf(kept.get(other.sourcedId)).includes(listedSide.sourcedId))
    .map(({ student, guardian, relation }) => ({ student, guardian, relation }));
}

/** The agentSourcedIds of a kept users.csv row, whatever the spelling of its header. */
function agentsOf(row: Readonly<Record<string, string>> | undefined): string[] {
  const name = Object.keys(row ?? {}).find((key) => key.toLowerCase() === 'agentsourcedids');
  if (!row || name === undefined) return [];
  return row[name]
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
