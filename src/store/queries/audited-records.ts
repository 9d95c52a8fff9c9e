import type { Session } from '../session';

/** The store's ids of the students, teachers and classes a read's records name. */
export interface AuditedIds {
  readonly students: number[];
  readonly teachers: number[];
  readonly classes: number[];
}

/** The tables a read's sourcedIds may be of. */
export type AuditedTable = 'students' | 'teachers' | 'classes' | 'class_subjects';

/**
 * The ids of the people and classes a OneRoster read named by sourcedId (the caller bounds how
 * many): a person is a student or a teacher (a guardian is not one the trail lists), a class a
 * homeroom or a scheduled class (its homeroom's id, as the trail keeps a class). A sourcedId the
 * roster ledger does not know is read by `generatedId`, as the sourcedId an export made up for a
 * record no import brought.
 */
export async function auditedRecordIds(
  { db }: Session,
  named: { readonly people: readonly string[]; readonly classes: readonly string[] },
  generatedId: (table: AuditedTable, sourcedId: string) => number | undefined,
): Promise<AuditedIds> {
  const ids: AuditedIds = { students: [], teachers: [], classes: [] };
  const all = [...named.people, ...named.classes];
  const ledger =
    all.length === 0
      ? []
      : await db
          .selectFrom('roster_ids')
          .select(['kind', 'sourced_id', 'id'])
          .where('kind', 'in', ['students', 'teachers', 'classes', 'class_subjects'])
          .where('sourced_id', 'in', all)
          .execute();
  const people = new Set(named.people);
  const classes = new Set(named.classes);
  // A sourcedId counts only as what the read named it as: a person, or a class.
  const namedAs = (kind: string, sourcedId: string) =>
    kind === 'students' || kind === 'teachers' ? people.has(sourcedId) : classes.has(sourcedId);
  const matched = ledger.filter((row) => namedAs(row.kind, row.sourced_id));
  const known = new Set(matched.map((row) => row.sourced_id));
  const sections: number[] = [];
  const add = (table: string, id: number) => {
    if (table === 'students') ids.students.push(id);
    else if (table === 'teachers') ids.teachers.push(id);
    else if (table === 'classes') ids.classes.push(id);
    else sections.push(id);
  };
  for (const row of matched) add(row.kind, Number(row.id));
  const guess = (sourcedIds: ReadonlySet<string>, tables: readonly AuditedTable[]) => {
    for (const sourcedId of sourcedIds) {
      if (known.has(sourcedId)) continue;
      for (const table of tables) {
        const id = generatedId(table, sourcedId);
        if (id !== undefined) add(table, id);
      }
    }
  };
  guess(people, ['students', 'teachers']);
  guess(classes, ['classes', 'class_subjects']);
  if (sections.length > 0) {
    const homerooms = await db.selectFrom('class_subjects').select('class_id').where('id', 'in', sections).execute();
    for (const row of homerooms) ids.classes.push(Number(row.class_id));
  }
  return ids;
}
