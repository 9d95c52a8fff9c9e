import type { Identity } from '../access/caller-registry';
import type { AuditTrail } from '../audit/audit-trail';
import type { Json } from '../roster/rest-records';
import { generatedIdOf } from '../roster/sourced-ids';
import type { Store } from '../store/open-store';
import { auditedRecordIds } from '../store/queries/audited-records';
import type { RecordPage } from './record-pages';

/**
 * A consumer's read in the audit trail, as a SOAP call that shows personal data is: its caller,
 * address and the students, teachers and classes it read (`GET users`, `GET classes/students`).
 * Bounded as SOAP's list reads are: a read of a class's people, marks or enrolments is recorded by
 * the class alone (as a class's attendance is, found for a student through their enrolment), a
 * read of a person's classes or marks by the person, and any other read by the people and classes
 * its records name, when they are at most AUDITED_PER_READ of each; a larger page (an LMS's 10,000
 * users) is recorded by its collection and its number of records alone, so that an entry never
 * lists thousands of ids. Reads of records that name no one (orgs, sessions, courses, categories,
 * line items, score scales, a school's or a term's classes) and reads that answered no record are
 * not recorded.
 */
export const AUDITED_PER_READ = 100;

/** The files whose records are people's: a user, their demographics, an enrolment, a mark. */
const PERSONAL_FILES = new Set(['users', 'demographics', 'enrollments', 'results']);
const PERSON_PARENTS = new Set(['users', 'students', 'teachers']);

type Named = { people: Set<string>; classes: Set<string> };

const sourcedIdAt = (record: Json, member: string): string | undefined => {
  const value = record[member];
  const sourcedId = value && typeof value === 'object' ? (value as Json).sourcedId : undefined;
  return typeof sourcedId === 'string' ? sourcedId : undefined;
};

/** The people and classes a record of `file` names. */
function namedBy(file: string, record: Json): { people: string[]; classes: string[] } {
  const own = typeof record.sourcedId === 'string' ? record.sourcedId : undefined;
  const present = (...ids: (string | undefined)[]) => ids.filter((id): id is string => id !== undefined);
  if (file === 'users' || file === 'demographics') return { people: present(own), classes: [] };
  if (file === 'enrollments') {
    return { people: present(sourcedIdAt(record, 'user')), classes: present(sourcedIdAt(record, 'class')) };
  }
  if (file === 'results') return { people: present(sourcedIdAt(record, 'student')), classes: [] };
  return { people: [], classes: [] };
}

export class ReadAudit {
  private readonly named: Named = { people: new Set(), classes: new Set() };
  private records = 0;

  private constructor(
    private readonly file: string,
    private readonly operation: string,
    private readonly parent: { readonly kind: 'people' | 'classes'; readonly sourcedId: string } | undefined,
  ) {}

  /**
   * The audit of a read of `segments` (`users`, `users/u1`, `classes/c1/students`) whose records
   * are rows of `file`, or undefined for a read of records that name no one.
   */
  static of(file: string, segments: readonly string[]): ReadAudit | undefined {
    const nested = segments.length === 3;
    const personParent = nested && PERSON_PARENTS.has(segments[0]);
    if (!PERSONAL_FILES.has(file) && !personParent) return undefined;
    const operation = `GET ${nested ? `${segments[0]}/${segments[2]}` : segments[0]}`;
    if (personParent) return new ReadAudit(file, operation, { kind: 'people', sourcedId: segments[1] });
    if (nested && segments[0] === 'classes') {
      return new ReadAudit(file, operation, { kind: 'classes', sourcedId: segments[1] });
    }
    return new ReadAudit(file, operation, undefined);
  }

  /** The page, telling this audit each record it hands over. */
  watching(page: RecordPage): RecordPage {
    return {
      total: page.total,
      records: (each) =>
        page.records((record) => {
          this.seen(record);
          return each(record);
        }),
    };
  }

  /** Told each record the answer holds. */
  seen(record: Json): void {
    this.records += 1;
    if (this.parent || this.overBound()) return;
    const { people, classes } = namedBy(this.file, record);
    for (const id of people) this.named.people.add(id);
    for (const id of classes) this.named.classes.add(id);
  }

  private overBound(): boolean {
    return this.named.people.size > AUDITED_PER_READ || this.named.classes.size > AUDITED_PER_READ;
  }

  /** Records the read (when it answered a record), and resolves once its entry is in the journal file. */
  async write(
    parts: { readonly store: Store; readonly audit: AuditTrail; readonly clock: () => Date },
    who: Identity,
    address: string,
  ): Promise<void> {
    if (this.records === 0) return;
    const over = !this.parent && this.overBound();
    const named = { people: [] as string[], classes: [] as string[] };
    if (this.parent) named[this.parent.kind].push(this.parent.sourcedId);
    else if (!over) {
      named.people.push(...this.named.people);
      named.classes.push(...this.named.classes);
    }
    const ids = await auditedRecordIds(parts.store, named, generatedIdOf);
    parts.audit.record({
      at: parts.clock(),
      caller: who.name,
      address,
      operation: over ? `${this.operation} (${this.records} records, not listed)` : this.operation,
      binding: 'oneroster',
      outcome: 'ok',
      ...ids,
    });
    await new Promise<void>((resolve, reject) => parts.audit.afterJournal(resolve, reject));
  }
}
