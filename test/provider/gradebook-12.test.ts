import { join } from 'node:path';
import type { RunningService } from '../../src/service';
import { describeEachEngine } from '../support/engines';
import { schemaProblems } from '../support/oneroster-json-schema';
import { idsOf, startProviderWithToken, withToken } from '../support/provider-client';
import { importBundle, problemsOf } from '../support/roster-import';
import { openTestStore } from '../support/stores';

/**
 * The gradebook of a school imported from a OneRoster 1.2 bundle, read from another address on
 * both engines: a result not submitted (no score) is served as the 1.2 binding shapes it, and
 * left out of 1.1, which requires a score; the bundle's score scales are served with their
 * entries, per class, and a line item names its scale.
 */
const GRADEBOOK = '/ims/oneroster/gradebook/v1p2';
const FIXTURE = join(__dirname, '..', 'roster', 'fixtures', 'oneroster-1-2');

describeEachEngine('a 1.2 gradebook served', (engine) => {
  let service: RunningService;
  let token: string;
  const get = (path: string) => withToken(service, token, path);
  /** The record a path answers, checked against its 1.2 schema. */
  const recordAt = async (path: string, kind: string) => {
    const answer = await get(path);
    expect([path, answer.status]).toEqual([path, 200]);
    const record = JSON.parse(answer.text)[kind] as Record<string, unknown>;
    expect(schemaProblems(kind, record)).toEqual([]);
    return record;
  };
  beforeAll(async () => {
    const storeSettings = engine.freshStoreSettings();
    const store = await openTestStore(storeSettings);
    try {
      expect(problemsOf(await importBundle(store, FIXTURE))).toEqual([]);
    } finally {
      await store.close();
    }
    ({ service, token } = await startProviderWithToken(storeSettings, {
      name: 'lms',
      operations: ['roster', 'gradebook'],
    }));
  });
  afterAll(() => service.close());

  test('a result without a score is read as 1.2 has it, and is no record of 1.1', async () => {
    const unscored = await recordAt(`${GRADEBOOK}/results/res-2`, 'result');
    expect(unscored).toMatchObject({
      sourcedId: 'res-2',
      scoreStatus: 'not submitted',
      scoreDate: '2026-09-27',
      lineItem: { sourcedId: 'li-lab1' },
      student: { sourcedId: 'u-s2' },
    });
    expect(unscored).not.toHaveProperty('score');
    expect(idsOf((await get(`${GRADEBOOK}/lineItems/li-lab1/results`)).text, 'results').sort()).toEqual([
      'res-1',
      'res-2',
    ]);
    const notSubmitted = await get(`${GRADEBOOK}/results?filter=${encodeURIComponent("scoreStatus='not submitted'")}`);
    expect(idsOf(notSubmitted.text, 'results')).toEqual(['res-2']);
    expect((await get('/ims/oneroster/v1p1/results/res-2')).status).toBe(404);
    const older = idsOf((await get('/ims/oneroster/v1p1/results')).text, 'results');
    expect(older).toContain('res-1');
    expect(older).not.toContain('res-2');
  });

  test('a result an LMS writes without a score reads back, dated the day it was written', async () => {
    const put = await withToken(service, token, `${GRADEBOOK}/results/r-exempt`, {
      method: 'PUT',
      body: {
        result: {
          lineItem: { sourcedId: 'li-lab1' },
          student: { sourcedId: 'u-s1' },
          scoreStatus: 'exempt',
          comment: 'Away on the trip',
        },
      },
    });
    expect(put.status).toBe(201);
    const read = await recordAt(`${GRADEBOOK}/results/r-exempt`, 'result');
    expect(read).toMatchObject({ scoreStatus: 'exempt', comment: 'Away on the trip' });
    expect(read.scoreDate).toBe(new Date().toISOString().slice(0, 10));
  });

  test('the score scales, with their entries, per class; a line item names its scale', async () => {
    const scales = JSON.parse((await get(`${GRADEBOOK}/scoreScales`)).text).scoreScales as Record<string, unknown>[];
    expect(scales.map((scale) => scale.sourcedId)).toEqual(['ss-merit']);
    const scale = await recordAt(`${GRADEBOOK}/scoreScales/ss-merit`, 'scoreScale');
    expect(scale).toMatchObject({
      title: 'Merit scale',
      type: 'letter',
      class: { sourcedId: 'k-art6a', type: 'class' },
      course: { sourcedId: 'c-art6', type: 'course' },
      scoreScaleValue: [
        { itemValueLHS: 'Distinction', itemValueRHS: '95' },
        { itemValueLHS: 'Merit', itemValueRHS: '80' },
        { itemValueLHS: 'Pass', itemValueRHS: '60' },
        { itemValueLHS: 'Fail', itemValueRHS: '30' },
      ],
    });
    expect(idsOf((await get(`${GRADEBOOK}/classes/k-art6a/scoreScales`)).text, 'scoreScales')).toEqual(['ss-merit']);
    expect(idsOf((await get(`${GRADEBOOK}/classes/k-sci6a/scoreScales`)).text, 'scoreScales')).toEqual([]);
    const portfolio = await recordAt(`${GRADEBOOK}/lineItems/li-port`, 'lineItem');
    expect(portfolio.scoreScale).toMatchObject({ sourcedId: 'ss-merit', type: 'scoreScale' });
  });
});
