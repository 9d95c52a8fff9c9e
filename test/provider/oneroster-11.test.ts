import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { idsOf, importSmallSchool, startProviderService, tokenFor, withToken } from '../support/provider-client';

/**
 * OneRoster 1.1 for older consumers, from another address, on both engines: the rostering and
 * gradebook reads under /ims/oneroster/v1p1 in the 1.1 shapes, with the bearer tokens of the
 * same endpoint.
 */
const V1P1 = '/ims/oneroster/v1p1';

describeEachEngine('OneRoster 1.1 reads', (engine) => {
  let service: RunningService;
  let token: string;
  const get = (path: string, as = token) => withToken(service, as, `${V1P1}${path}`);
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    let secrets: Record<string, string>;
    ({ service, secrets } = await startProviderService(storeSettings, [
      { name: 'old-lms', secret: true, operations: ['roster', 'gradebook'] },
    ]));
    token = await tokenFor(service, 'old-lms', secrets['old-lms']);
  });
  afterAll(() => service.close());

  test('a user in the 1.1 shape: its role and orgs, enabledUser as text', async () => {
    const user = JSON.parse((await get('/users/s2')).text).user;
    expect(user).toMatchObject({
      sourcedId: 's2',
      role: 'student',
      enabledUser: 'true',
      orgs: [{ href: '/orgs/sch-1', sourcedId: 'sch-1', type: 'org' }],
    });
    expect(user).not.toHaveProperty('roles');
  });

  test('rostering and gradebook collections under one path, nested ones included', async () => {
    expect(idsOf((await get('/classes/math-7a/students')).text, 'users').sort()).toEqual(['s1', 's2']);
    expect(idsOf((await get('/lineItems/li1/results')).text, 'results').sort()).toEqual(['r1', 'r2']);
    const page = await get('/enrollments?limit=4&offset=4');
    expect([page.headers['x-total-count'], idsOf(page.text, 'enrollments')]).toEqual(['9', expect.any(Array)]);
    expect(idsOf(page.text, 'enrollments')).toHaveLength(4);
  });

  test('without a token, 401; writes are not taken', async () => {
    expect((await get('/users', 'nothing')).status).toBe(401);
    expect((await withToken(service, token, `${V1P1}/results/r1`, { method: 'PUT', body: {} })).status).toBe(405);
  });
});
