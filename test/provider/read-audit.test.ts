import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { importSmallSchool, ROSTERING, startProviderWithToken, withToken } from '../support/provider-client';
import { smallSchool } from '../support/roster-bundle';

/**
 * An LMS's reads in the audit trail, from another address on both engines: a person's record by
 * the person, a class's students by the class alone, a page by the people it shows, and a page
 * of more than a hundred people by its collection and its count, without an id a person; a read
 * of records that name no one, or that found nothing, is not recorded.
 */
const EXTRA_STUDENTS = 110;

describeEachEngine('reads in the audit trail', (engine) => {
  let service: RunningService;
  let token: string;
  const get = async (path: string, status = 200) => {
    const answer = await withToken(service, token, `${ROSTERING}${path}`);
    expect([path, answer.status]).toEqual([path, status]);
    return answer.status === 200 ? JSON.parse(answer.text) : undefined;
  };
  /** The trail's entries of the LMS's reads: operation, binding, the students' and the classes' ids. */
  const entries = async () => {
    await service.writeAudit();
    const events = await service.store.db
      .selectFrom('audit_events')
      .select(['id', 'operation', 'binding'])
      .where('caller', '=', 'lms')
      .where('operation', 'like', 'GET %')
      .execute();
    const subjects = await service.store.db.selectFrom('audit_subjects').selectAll().execute();
    return events.map((event) => {
      const of = (kind: string) =>
        subjects
          .filter((subject) => subject.event_id === event.id && subject.kind === kind)
          .map((subject) => Number(subject.subject_id))
          .sort((a, b) => a - b);
      return { operation: event.operation, binding: event.binding, students: of('student'), classes: of('class') };
    });
  };
  const entryOf = async (operation: string) => (await entries()).filter((entry) => entry.operation === operation);

  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    const school = smallSchool();
    const template = school.users.find((user) => user.sourcedId === 's3');
    for (let index = 1; index <= EXTRA_STUDENTS; index += 1) {
      school.users.push({ ...template, sourcedId: `x${index}`, username: `x${index}`, identifier: `${2000 + index}` });
    }
    await importSmallSchool(storeSettings, school);
    ({ service, token } = await startProviderWithToken(storeSettings, {
      name: 'lms',
      operations: ['roster', 'gradebook'],
    }));
  });
  afterAll(() => service.close());

  test('a person’s record is recorded with the person; an unknown one and an org are not recorded', async () => {
    const student = (await get('/users/s1')).user;
    await get('/users/nobody', 404);
    await get('/orgs');
    expect(await entries()).toEqual([
      { operation: 'GET users', binding: 'oneroster', students: [Number(student.metadata.contractId)], classes: [] },
    ]);
  });

  test('a class’s students are recorded by the class alone', async () => {
    const students = (await get('/classes/math-7a/students')).users;
    expect(students.length).toBeGreaterThan(0);
    const [entry] = await entryOf('GET classes/students');
    expect(entry.students).toEqual([]);
    expect(entry.classes).toHaveLength(1);
  });

  test('a page is recorded with the people it shows; a page of over a hundred by its count alone', async () => {
    const page = (await get('/students?limit=5&sort=sourcedId')).users as Array<{ metadata: { contractId: string } }>;
    const [entry] = await entryOf('GET students');
    expect(entry.students).toEqual(page.map((user) => Number(user.metadata.contractId)).sort((a, b) => a - b));
    const large = (await get('/users?limit=1000')).users as unknown[];
    expect(large.length).toBeGreaterThan(EXTRA_STUDENTS);
    const [bounded] = await entryOf(`GET users (${large.length} records, not listed)`);
    expect(bounded).toMatchObject({ students: [], classes: [] });
  });
});
