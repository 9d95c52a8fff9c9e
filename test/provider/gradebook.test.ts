import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { idsOf, importSmallSchool, startProviderService, tokenFor, withToken } from '../support/provider-client';

/**
 * The gradebook service from another address, on both engines, on a school imported from a
 * bundle: categories, line items and results (the school's marks) in the 1.2 shapes, per class,
 * per line item and per student; a token needs the gradebook scope.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';

describeEachEngine('the gradebook service', (engine) => {
  let service: RunningService;
  let secrets: Record<string, string>;
  let token: string;
  const get = (path: string, as = token) => withToken(service, as, `${GRADEBOOK}${path}`);
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    await importSmallSchool(storeSettings);
    ({ service, secrets } = await startProviderService(storeSettings, [
      { name: 'lms', secret: true, operations: ['gradebook'] },
      { name: 'roster-only', secret: true, operations: ['roster'] },
    ]));
    token = await tokenFor(service, 'lms', secrets.lms);
  });
  afterAll(() => service.close());

  test('line items, results and categories, with the imported sourcedIds', async () => {
    expect(idsOf((await get('/lineItems')).text, 'lineItems').sort()).toEqual(['li1', 'li2', 'li3']);
    const lineItem = JSON.parse((await get('/lineItems/li1')).text).lineItem;
    expect(lineItem).toMatchObject({
      sourcedId: 'li1',
      class: { sourcedId: 'math-7a', type: 'class' },
      category: { sourcedId: 'cat-quiz', type: 'category' },
      resultValueMax: 10,
    });
    const results = JSON.parse((await get('/lineItems/li1/results?sort=score')).text).results;
    expect(results.map((result: { sourcedId: string; score: number }) => [result.sourcedId, result.score])).toEqual([
      ['r1', 8.5],
      ['r2', 9],
    ]);
    expect(idsOf((await get('/categories')).text, 'categories').sort()).toEqual(['cat-exam', 'cat-quiz']);
    expect(JSON.parse((await get('/scoreScales')).text)).toEqual({ scoreScales: [] });
  });

  test('per class and per student', async () => {
    expect(idsOf((await get('/classes/math-7a/lineItems')).text, 'lineItems')).toEqual(['li1']);
    expect(idsOf((await get('/classes/math-7a/results')).text, 'results').sort()).toEqual(['r1', 'r2']);
    expect(idsOf((await get('/students/s1/results')).text, 'results').sort()).toEqual(['r1', 'r3']);
    expect(idsOf((await get('/classes/math-7a/categories')).text, 'categories')).toHaveLength(2);
    expect((await get('/classes/no-such/lineItems')).status).toBe(404);
  });

  test('a token without the gradebook scope is refused', async () => {
    const roster = await tokenFor(service, 'roster-only', secrets['roster-only']);
    expect((await get('/results', roster)).status).toBe(403);
  });
});
