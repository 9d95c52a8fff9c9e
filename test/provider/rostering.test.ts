import { revokeCaller } from '../../src/access/caller-admin';
import type { RunningService } from '../../src/service';
import { addTestCallers } from '../support/callers';
import { describeEachEngine } from '../support/engines';
import {
  idsOf,
  importSmallSchool,
  ROSTERING,
  SCOPE,
  startProviderService,
  tokenFor,
  withToken,
} from '../support/provider-client';
import { startTestService } from '../support/service';
import { REMOTE_TEST_SETTINGS } from '../support/callers';

/**
 * The rostering service from another address, on both engines, on a school imported from a
 * bundle: the 1.2 shapes with the imported sourcedIds and kept fields, paging with X-Total-Count
 * and Link, sort, filter, fields, nested collections, the errors in imsx_StatusInfo shape, and a
 * token's caller (revoked, scoped, on another node) deciding what it reads.
 */
const codeMinorOf = (text: string) =>
  JSON.parse(text).imsx_CodeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue as string;

describeEachEngine('the rostering service', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  let storeSettings: Record<string, string>;
  let token: string;
  const get = (path: string, as = token) => withToken(service, as, `${ROSTERING}${path}`);
  beforeAll(async () => {
    storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    ({ service, secrets } = await startProviderService(storeSettings, [
      { name: 'lms', secret: true, operations: ['roster', 'gradebook'] },
      { name: 'marks-only', secret: true, operations: ['gradebook'] },
    ]));
    token = await tokenFor(service, 'lms', secrets.lms);
  });
  afterAll(() => service.close());

  test('orgs and schools in the 1.2 shape, with the imported sourcedIds and kept fields', async () => {
    const orgs = await get('/orgs');
    expect([orgs.status, orgs.headers['x-total-count']]).toEqual([200, '2']);
    expect(idsOf(orgs.text, 'orgs').sort()).toEqual(['dist-1', 'sch-1']);
    const schools = JSON.parse((await get('/schools')).text).orgs;
    expect(schools).toEqual([
      expect.objectContaining({
        sourcedId: 'sch-1',
        status: 'active',
        type: 'school',
        parent: { href: '/orgs/dist-1', sourcedId: 'dist-1', type: 'org' },
        metadata: expect.objectContaining({ nameEn: 'Al-Amal School' }),
      }),
    ]);
    const user = JSON.parse((await get('/users/s2')).text).user;
    expect(user).toMatchObject({
      sourcedId: 's2',
      givenName: 'Sara',
      enabledUser: true,
      primaryOrg: { sourcedId: 'sch-1', type: 'org' },
      roles: [{ roleType: 'primary', role: 'student', org: { sourcedId: 'sch-1' } }],
      agents: [{ sourcedId: 'g1', type: 'user' }],
    });
    expect(user).not.toHaveProperty('role');
  });

  test('limit and offset page with X-Total-Count and Link; a bad limit is refused', async () => {
    const all = await get('/users?limit=10000');
    const total = Number(all.headers['x-total-count']);
    expect(idsOf(all.text, 'users')).toHaveLength(total);
    const first = await get('/users?limit=3');
    expect(idsOf(first.text, 'users')).toEqual(idsOf(all.text, 'users').slice(0, 3));
    expect(first.headers.link).toContain('offset=3>; rel="next"');
    const last = await get(`/users?limit=3&offset=${total - 1}`);
    expect(idsOf(last.text, 'users')).toEqual(idsOf(all.text, 'users').slice(-1));
    expect(last.headers.link).not.toContain('rel="next"');
    expect(last.headers.link).toContain('rel="prev"');
    for (const bad of ['limit=0', 'limit=ten', 'offset=-1']) {
      const refused = await get(`/users?${bad}`);
      expect([refused.status, codeMinorOf(refused.text)]).toEqual([400, 'invaliddata']);
    }
  });

  test('sort and orderBy; an unknown sort field is refused', async () => {
    const sorted = await get('/teachers?sort=givenName&orderBy=desc');
    expect(idsOf(sorted.text, 'users')).toEqual(['t-2', 't-1']);
    const refused = await get('/users?sort=shoeSize');
    expect([refused.status, codeMinorOf(refused.text)]).toEqual([400, 'invalid_sort_field']);
  });

  test('filter with the binding’s operators, AND and OR, and dateLastModified>', async () => {
    expect(idsOf((await get("/teachers?filter=givenName='Mona'")).text, 'users')).toEqual(['t-1']);
    const both = await get(`/users?filter=${encodeURIComponent("roles.role='student' AND givenName~'SAR'")}`);
    expect(idsOf(both.text, 'users')).toEqual(['s2']);
    const either = await get(`/users?filter=${encodeURIComponent("givenName='Mona' OR givenName='Omar'")}`);
    expect(idsOf(either.text, 'users').sort()).toEqual(['s3', 't-1']);
    const later = await get(`/classes?filter=${encodeURIComponent("dateLastModified>'2999-01-01T00:00:00Z'")}`);
    expect([later.headers['x-total-count'], idsOf(later.text, 'classes')]).toEqual(['0', []]);
    const unmoved = await get(`/classes?filter=${encodeURIComponent("dateLastModified>'2000-01-01T00:00:00Z'")}`);
    expect(idsOf(unmoved.text, 'classes')).toHaveLength(5);
    for (const bad of ["givenName='Mona", "shoeSize='9'", "givenName=='x'"]) {
      const refused = await get(`/users?filter=${encodeURIComponent(bad)}`);
      expect([refused.status, codeMinorOf(refused.text)]).toEqual([400, 'invalid_filter_field']);
    }
  });

  test('fields selects what each record carries; an unknown field is refused', async () => {
    const chosen = JSON.parse((await get('/users?fields=sourcedId,givenName&limit=2')).text).users;
    for (const user of chosen) expect(Object.keys(user)).toEqual(['sourcedId', 'givenName']);
    const refused = await get('/users?fields=sourcedId,password');
    expect([refused.status, codeMinorOf(refused.text)]).toEqual([400, 'invalid_selection_field']);
  });

  test('the nested collections', async () => {
    expect(idsOf((await get('/classes/math-7a/students')).text, 'users').sort()).toEqual(['s1', 's2']);
    expect(idsOf((await get('/classes/math-7a/teachers')).text, 'users')).toEqual(['t-1']);
    expect(idsOf((await get('/teachers/t-1/classes')).text, 'classes').sort()).toEqual(['math-7a', 'math-7b']);
    expect(idsOf((await get('/students/s3/classes')).text, 'classes').sort()).toEqual(['hr-7b', 'math-7b']);
    expect(idsOf((await get('/terms/t1/gradingPeriods')).text, 'academicSessions')).toEqual(['gp1']);
    expect(idsOf((await get('/schools/sch-1/classes')).text, 'classes')).toHaveLength(5);
    expect(idsOf((await get('/courses/c-sci/classes')).text, 'classes')).toEqual(['sci-7a']);
    const unknown = await get('/classes/no-such/students');
    expect([unknown.status, codeMinorOf(unknown.text)]).toEqual([404, 'unknownobject']);
    expect((await get('/users/no-such')).status).toBe(404);
    expect((await get('/shoes')).status).toBe(404);
  });

  test('without a token 401; a token without the scope 403; both in imsx_StatusInfo shape', async () => {
    const none = await withToken(service, 'garbage', `${ROSTERING}/users`);
    expect([none.status, codeMinorOf(none.text), none.headers['www-authenticate']]).toEqual([
      401,
      'unauthorisedrequest',
      'Bearer',
    ]);
    expect(JSON.parse(none.text)).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });
    const marks = await tokenFor(service, 'marks-only', secrets['marks-only']);
    const forbidden = await get('/users', marks);
    expect([forbidden.status, codeMinorOf(forbidden.text)]).toEqual([403, 'forbidden']);
    const core = await tokenFor(service, 'lms', secrets.lms, [SCOPE('roster-core.readonly')]);
    expect((await get('/users', core)).status).toBe(200);
    expect((await get('/demographics', core)).status).toBe(403);
  });

  test('a token works on every node, and stops with its revoked caller', async () => {
    const { gone } = await addTestCallers(service.store, [{ name: 'gone', secret: true, operations: ['roster'] }]);
    await service.readCallers();
    const goneToken = await tokenFor(service, 'gone', gone);
    const other = await startTestService({ ...REMOTE_TEST_SETTINGS, DEMO_DATA: 'off', ...storeSettings });
    try {
      expect((await withToken(other, goneToken, `${ROSTERING}/orgs`)).status).toBe(200);
      await revokeCaller(service.store, 'gone', new Date());
      await Promise.all([service.readCallers(), other.readCallers()]);
      expect((await withToken(other, goneToken, `${ROSTERING}/orgs`)).status).toBe(401);
      expect((await get('/orgs', goneToken)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  test('past ONEROSTER_REQUESTS_PER_MINUTE a caller is answered 429 with Retry-After, on every node', async () => {
    const { busy } = await addTestCallers(service.store, [{ name: 'busy', secret: true, operations: ['roster'] }]);
    const limited = await startTestService({
      ...REMOTE_TEST_SETTINGS,
      DEMO_DATA: 'off',
      ...storeSettings,
      ONEROSTER_REQUESTS_PER_MINUTE: '3',
    });
    try {
      const busyToken = await tokenFor(limited, 'busy', busy);
      for (let index = 0; index < 3; index += 1) {
        expect((await withToken(limited, busyToken, `${ROSTERING}/orgs`)).status).toBe(200);
      }
      const refused = await withToken(limited, busyToken, `${ROSTERING}/orgs`);
      expect([refused.status, refused.headers['retry-after'], codeMinorOf(refused.text)]).toEqual([
        429,
        '60',
        'server_busy',
      ]);
    } finally {
      await limited.close();
    }
  });

  test('a teacher-scoped caller reads its classes and their students, and no one else', async () => {
    const teacherId = JSON.parse((await get('/users/t-1')).text).user.metadata.contractId;
    const { mona } = await addTestCallers(service.store, [
      { name: 'mona', secret: true, operations: ['roster'], scope: `teacher:${teacherId}` },
    ]);
    await service.readCallers();
    const scoped = await tokenFor(service, 'mona', mona);
    expect(idsOf((await get('/classes', scoped)).text, 'classes').sort()).toEqual(['math-7a', 'math-7b']);
    expect(idsOf((await get('/users', scoped)).text, 'users').sort()).toEqual(['s1', 's2', 's3', 't-1']);
    expect((await get('/users/g1', scoped)).status).toBe(404);
    expect((await get('/classes/sci-7a/students', scoped)).status).toBe(404);
  });
});
