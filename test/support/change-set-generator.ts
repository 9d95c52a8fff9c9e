import fc from 'fast-check';
import { ONEROSTER_FILES } from '../../src/roster/manifest';
import { type GeneratedPhone, phoneValue, textValue } from './generated-values';
import type { BundleRows } from './roster-bundle';
import { type GeneratedSchool, type Row, withoutEmptyFiles } from './school-generator';

/**
 * Changes a SIS makes to a generated school between two syncs: users renamed and given another
 * phone, classes and line items retitled, scores and demographics changed, a pupil added (in the
 * classes of another, with results), results deleted, a pupil or a teacher deleted with their
 * enrolments and results, a pupil taken out of a class. Each change set is given as the rows a
 * delta carries (each with `status` and `dateLastModified`) and as the school after it, which a
 * bulk import of the final state reads.
 */
export interface ChangeSet {
  /** Per file, the rows that changed: the record as it now is, or `{ sourcedId, status: 'tobedeleted' }`. */
  readonly changed: ReadonlyMap<string, readonly Row[]>;
  /** The school after the changes, as a bulk bundle. */
  readonly final: BundleRows;
  /** Each file's columns: a delta's header has them all, though a `tobedeleted` row fills only three. */
  readonly columns: ReadonlyMap<string, readonly string[]>;
}

interface ChangePlan {
  readonly renamed: Array<{ user: number; given: string; phone: GeneratedPhone | undefined }>;
  readonly retitled: Array<{ file: 'classes' | 'lineItems'; row: number; title: string }>;
  readonly rescored: Array<{ result: number; score: number }>;
  readonly resexed: Array<{ row: number; sex: string }>;
  readonly deletedResults: number[];
  readonly deletedUser: { role: 'student' | 'teacher'; index: number } | undefined;
  readonly droppedEnrolment: number | undefined;
  readonly newPupil: { like: number; given: string; family: string; results: boolean } | undefined;
}

const changePlan: fc.Arbitrary<ChangePlan> = fc.record({
  renamed: fc.array(fc.record({ user: fc.nat(99), given: textValue, phone: phoneValue }), { maxLength: 2 }),
  retitled: fc.array(
    fc.record({ file: fc.constantFrom('classes' as const, 'lineItems' as const), row: fc.nat(99), title: textValue }),
    { maxLength: 2 },
  ),
  rescored: fc.array(fc.record({ result: fc.nat(99), score: fc.nat(20) }), { maxLength: 3 }),
  resexed: fc.array(fc.record({ row: fc.nat(99), sex: fc.constantFrom('male', 'female', 'other') }), { maxLength: 1 }),
  deletedResults: fc.array(fc.nat(99), { maxLength: 2 }),
  deletedUser: fc.option(
    fc.record({ role: fc.constantFrom('student' as const, 'teacher' as const), index: fc.nat(99) }),
    {
      nil: undefined,
    },
  ),
  droppedEnrolment: fc.option(fc.nat(99), { nil: undefined }),
  newPupil: fc.option(fc.record({ like: fc.nat(99), given: textValue, family: textValue, results: fc.boolean() }), {
    nil: undefined,
  }),
});

/** The school as records by file and sourcedId, changed in place, with what each change touched. */
class SchoolState {
  readonly files = new Map<string, Map<string, Row>>();
  readonly touched = new Map<string, Map<string, Row | 'deleted'>>();

  constructor(rows: BundleRows) {
    for (const file of ONEROSTER_FILES)
      this.files.set(file, new Map((rows[file] ?? []).map((row) => [row.sourcedId, { ...row }])));
  }

  /** The live rows of a file (a bulk bundle's `tobedeleted` rows are not the school's). */
  live(file: string, where: (row: Row) => boolean = () => true): Row[] {
    return [...(this.files.get(file)?.values() ?? [])].filter((row) => row.status !== 'tobedeleted' && where(row));
  }

  put(file: string, row: Row): void {
    this.files.get(file)?.set(row.sourcedId, row);
    this.touch(file, row.sourcedId, row);
  }

  remove(file: string, sourcedId: string): void {
    this.files.get(file)?.delete(sourcedId);
    this.touch(file, sourcedId, 'deleted');
  }

  private touch(file: string, sourcedId: string, row: Row | 'deleted'): void {
    if (!this.touched.has(file)) this.touched.set(file, new Map());
    this.touched.get(file)?.set(sourcedId, row);
  }
}

const pickFrom = <T>(list: readonly T[], index: number): T | undefined =>
  list.length === 0 ? undefined : list[index % list.length];

function applyPlan(state: SchoolState, plan: ChangePlan): void {
  for (const change of plan.renamed) {
    const user = pickFrom(state.live('users'), change.user);
    if (user) state.put('users', { ...user, givenName: change.given, phone: change.phone?.written ?? '' });
  }
  for (const change of plan.retitled) {
    const row = pickFrom(state.live(change.file), change.row);
    if (row) state.put(change.file, { ...row, title: change.title });
  }
  for (const change of plan.rescored) {
    const result = pickFrom(state.live('results'), change.result);
    const item = result && state.files.get('lineItems')?.get(result.lineItemSourcedId);
    if (result && item)
      state.put('results', { ...result, score: String((change.score / 20) * Number(item.resultValueMax)) });
  }
  for (const change of plan.resexed) {
    const row = pickFrom(state.live('demographics'), change.row);
    if (row) state.put('demographics', { ...row, sex: change.sex });
  }
  for (const index of plan.deletedResults) {
    const result = pickFrom(state.live('results'), index);
    if (result) state.remove('results', result.sourcedId);
  }
  if (plan.droppedEnrolment !== undefined) dropEnrolment(state, plan.droppedEnrolment);
  if (plan.deletedUser) deleteUser(state, plan.deletedUser.role, plan.deletedUser.index);
  if (plan.newPupil) addPupil(state, plan.newPupil);
}

const isHomeroom = (state: SchoolState, klass: string) =>
  state.files.get('classes')?.get(klass)?.classType === 'homeroom';

/** A pupil taken out of a scheduled class, with their results of its line items. */
function dropEnrolment(state: SchoolState, index: number): void {
  const enrolment = pickFrom(
    state.live('enrollments', (row) => row.role === 'student' && !isHomeroom(state, row.classSourcedId)),
    index,
  );
  if (!enrolment) return;
  state.remove('enrollments', enrolment.sourcedId);
  const items = new Set(
    state.live('lineItems', (row) => row.classSourcedId === enrolment.classSourcedId).map((row) => row.sourcedId),
  );
  for (const result of state.live('results', (row) => row.studentSourcedId === enrolment.userSourcedId))
    if (items.has(result.lineItemSourcedId)) state.remove('results', result.sourcedId);
}

/** A pupil or teacher deleted, and the SIS's enrolments, results and demographics of them with it. */
function deleteUser(state: SchoolState, role: string, index: number): void {
  const user = pickFrom(
    state.live('users', (row) => row.role === role),
    index,
  );
  if (!user) return;
  state.remove('users', user.sourcedId);
  for (const row of state.live('enrollments', (candidate) => candidate.userSourcedId === user.sourcedId))
    state.remove('enrollments', row.sourcedId);
  for (const row of state.live('results', (candidate) => candidate.studentSourcedId === user.sourcedId))
    state.remove('results', row.sourcedId);
  if (state.files.get('demographics')?.has(user.sourcedId)) state.remove('demographics', user.sourcedId);
  // The SIS no longer lists the pupil among their guardians' children.
  for (const guardian of state.live('users', (row) => row.agentSourcedIds.split(',').includes(user.sourcedId))) {
    const agents = guardian.agentSourcedIds.split(',').filter((agent) => agent !== user.sourcedId);
    state.put('users', { ...guardian, agentSourcedIds: agents.join(',') });
  }
}

/** A new pupil in the classes of another (of either school), with results of some of their line items. */
function addPupil(state: SchoolState, pupil: NonNullable<ChangePlan['newPupil']>): void {
  const enrolmentsOf = (user: string) => state.live('enrollments', (row) => row.userSourcedId === user);
  const hasHomeroom = (row: Row) => enrolmentsOf(row.sourcedId).some((e) => isHomeroom(state, e.classSourcedId));
  const pupils = state.live('users', (row) => row.role === 'student');
  // Like a pupil in scheduled classes only when there is one, the case bulk and delta place apart.
  const withoutHomeroom = pupils.filter((row) => !hasHomeroom(row));
  const candidates = withoutHomeroom.length > 0 && pupil.like % 2 === 0 ? withoutHomeroom : pupils.filter(hasHomeroom);
  const like = pickFrom(candidates, pupil.like);
  if (!like) return;
  state.put('users', {
    ...like,
    sourcedId: 'x-s1',
    username: 'x-s1',
    givenName: pupil.given,
    familyName: pupil.family,
    agentSourcedIds: '',
  });
  const classes = enrolmentsOf(like.sourcedId).map((row, index) => {
    state.put('enrollments', { ...row, sourcedId: `x-e${index + 1}`, userSourcedId: 'x-s1' });
    return row.classSourcedId;
  });
  if (!pupil.results) return;
  state
    .live('lineItems', (row) => classes.includes(row.classSourcedId))
    .forEach((item, index) => {
      state.put('results', {
        sourcedId: `x-r${index + 1}`,
        lineItemSourcedId: item.sourcedId,
        studentSourcedId: 'x-s1',
        scoreStatus: 'fully graded',
        score: item.resultValueMax,
        scoreDate: '2026-11-02',
      });
    });
}

export function generatedChanges(school: GeneratedSchool): fc.Arbitrary<ChangeSet> {
  return (
    changePlan
      .map((plan) => {
        const state = new SchoolState(school.rows);
        applyPlan(state, plan);
        const changed = new Map(
          [...state.touched].map(([file, rows]) => [
            file,
            [...rows].map(([sourcedId, row]) => (row === 'deleted' ? { sourcedId, status: 'tobedeleted' } : row)),
          ]),
        );
        const final: BundleRows = { ...school.rows };
        for (const file of ONEROSTER_FILES) final[file] = [...(state.files.get(file)?.values() ?? [])];
        const columns = new Map(
          ONEROSTER_FILES.map((file) => {
            const rows = [...(school.rows[file] ?? []), ...(state.files.get(file)?.values() ?? [])];
            return [file, [...new Set(['sourcedId', 'status', 'dateLastModified', ...rows.flatMap(Object.keys)])]];
          }),
        );
        return { changed, final: withoutEmptyFiles(final), columns };
      })
      // A change set changes something: a delta bundle declaring every file absent is no delta.
      .filter((changes) => changes.changed.size > 0)
  );
}

/**
 * The delta bundle of a change set: its rows stamped `dateLastModified`, the other files `absent`;
 * with `orgs`, those orgs as well, as a district's delta carries them for `--school` to tell its
 * schools apart.
 */
export function deltaBundle(changes: ChangeSet, modifiedAt: string, orgs: readonly Row[] = []): BundleRows {
  const files = new Map(changes.changed);
  if (orgs.length > 0) files.set('orgs', [...orgs, ...(files.get('orgs') ?? [])]);
  const rows: BundleRows = {
    manifest: [
      { propertyName: 'manifest.version', value: '1.0' },
      { propertyName: 'oneroster.version', value: '1.1' },
      // A change set of no OneRoster file declares every one absent: the bundle says it is a delta.
      { propertyName: 'processingMode', value: 'delta' },
      ...ONEROSTER_FILES.map((name) => ({
        propertyName: `file.${name}`,
        value: files.has(name) ? 'delta' : 'absent',
      })),
    ],
  };
  for (const [file, list] of files) {
    const blank = Object.fromEntries((changes.columns.get(file) ?? []).map((column) => [column, '']));
    rows[file] = list.map((row) => ({ ...blank, ...stamped(row, modifiedAt) }));
  }
  return rows;
}

/** A changed row as a delta carries it: active, or tobedeleted, and when it changed. */
export function stamped(row: Row, modifiedAt: string): Row {
  return { ...row, status: row.status === 'tobedeleted' ? 'tobedeleted' : 'active', dateLastModified: modifiedAt };
}
