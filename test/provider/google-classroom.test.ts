import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { schemaProblems } from '../support/oneroster-json-schema';
import {
  ALL_SCOPES,
  importSmallSchool,
  ROSTERING,
  startProviderWithToken,
  withToken,
} from '../support/provider-client';
import { smallSchool } from '../support/roster-bundle';

/**
 * The sequence Google Classroom publishes for a SIS, driven end to end from another address on
 * both engines: a token for the 1.2 scope URIs; the teacher by e-mail; their active classes; a
 * class's students, categories; a term's grading periods; a line item and a result PUT, then
 * DELETEd; pages of 10,000. Every record answered fits the 1.2 binding's JSON shape.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const KINDS: Readonly<Record<string, string>> = {
  orgs: 'org',
  courses: 'course',
  enrollments: 'enrollment',
  users: 'user',
  classes: 'class',
  categories: 'category',
  academicSessions: 'academicSession',
  lineItems: 'lineItem',
  results: 'result',
};

describeEachEngine('Google Classroom’s sequence', (engine) => {
  let service: RunningService;
  let token: string;
  /** A GET whose records (a page or one) must fit their schema; the parsed answer. */
  const read = async (path: string): Promise<Record<string, unknown>> => {
    const answer = await withToken(service, token, path);
    expect([path, answer.status]).toEqual([path, 200]);
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    const [key, value] = Object.entries(body)[0];
    const records = Array.isArray(value) ? value : [value];
    const kind = KINDS[key] ?? key;
    for (const record of records) expect(schemaProblems(kind, record as Record<string, unknown>)).toEqual([]);
    return body;
  };
  const ids = (records: unknown) => (records as Array<{ sourcedId: string }>).map((record) => record.sourcedId);

  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    const school = smallSchool();
    for (const user of school.users) user.email = `${user.sourcedId}@school.example`;
    await importSmallSchool(storeSettings, school);
    ({ service, token } = await startProviderWithToken(
      storeSettings,
      { name: 'classroom', operations: ['roster', 'gradebook'] },
      ALL_SCOPES,
    ));
  });
  afterAll(() => service.close());

  test('roster reads: teacher by e-mail, active classes, students, categories, grading periods', async () => {
    const filter = encodeURIComponent("email='t-1@school.example'");
    const teachers = (await read(`${ROSTERING}/teachers?filter=${filter}&limit=10000`)).users;
    expect(ids(teachers)).toEqual(['t-1']);
    const active = encodeURIComponent("status='active'");
    const classes = (await read(`${ROSTERING}/teachers/t-1/classes?filter=${active}&limit=10000`)).classes;
    expect(ids(classes).sort()).toEqual(['math-7a', 'math-7b']);
    const students = (await read(`${ROSTERING}/classes/math-7a/students?limit=10000`)).users as Array<{
      sourcedId: string;
      email: string;
    }>;
    expect(students.map((student) => [student.sourcedId, student.email]).sort()).toEqual([
      ['s1', 's1@school.example'],
      ['s2', 's2@school.example'],
    ]);
    expect(ids((await read(`${GRADEBOOK}/classes/math-7a/categories?limit=10000`)).categories).sort()).toEqual([
      'cat-exam',
      'cat-quiz',
    ]);
    expect(ids((await read(`${ROSTERING}/terms/t1/gradingPeriods?limit=10000`)).academicSessions)).toEqual(['gp1']);
  });

  test('gradebook writes: PUT a line item and a result, read them back in shape, DELETE both', async () => {
    const lineItem = {
      lineItem: {
        sourcedId: 'gc-cw-1',
        status: 'active',
        title: 'Essay',
        assignDate: '2026-10-01T00:00:00Z',
        dueDate: '2026-10-10T00:00:00Z',
        class: { sourcedId: 'math-7a', type: 'class' },
        school: { sourcedId: 'sch-1', type: 'org' },
        category: { sourcedId: 'cat-exam', type: 'category' },
        gradingPeriod: { sourcedId: 'gp1', type: 'academicSession' },
        resultValueMin: 0,
        resultValueMax: 100,
      },
    };
    const put = (path: string, body: unknown) => withToken(service, token, path, { method: 'PUT', body });
    expect((await put(`${GRADEBOOK}/lineItems/gc-cw-1`, lineItem)).status).toBe(201);
    const result = {
      result: {
        sourcedId: 'gc-sub-1',
        status: 'active',
        lineItem: { sourcedId: 'gc-cw-1', type: 'lineItem' },
        student: { sourcedId: 's2', type: 'user' },
        scoreStatus: 'fully graded',
        score: 88,
        scoreDate: '2026-10-11T09:00:00Z',
      },
    };
    expect((await put(`${GRADEBOOK}/results/gc-sub-1`, result)).status).toBe(201);
    expect((await put(`${GRADEBOOK}/results/gc-sub-1`, result)).status).toBe(200);
    expect((await read(`${GRADEBOOK}/lineItems/gc-cw-1`)).lineItem).toMatchObject({ title: 'Essay' });
    expect((await read(`${GRADEBOOK}/results/gc-sub-1`)).result).toMatchObject({ score: 88 });
    await read(`${GRADEBOOK}/lineItems/gc-cw-1/results?limit=10000`);
    const remove = (path: string) => withToken(service, token, path, { method: 'DELETE' });
    expect((await remove(`${GRADEBOOK}/results/gc-sub-1`)).status).toBe(204);
    expect((await remove(`${GRADEBOOK}/lineItems/gc-cw-1`)).status).toBe(204);
    expect((await withToken(service, token, `${GRADEBOOK}/lineItems/gc-cw-1`)).status).toBe(404);
  });

  test('every record of the collections served fits its 1.2 shape', async () => {
    for (const path of ['/orgs', '/academicSessions', '/courses', '/classes', '/users', '/enrollments']) {
      await read(`${ROSTERING}${path}?limit=10000`);
    }
    for (const path of ['/categories', '/lineItems', '/results']) await read(`${GRADEBOOK}${path}?limit=10000`);
  });
});
