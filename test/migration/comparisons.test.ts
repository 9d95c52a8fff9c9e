import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import { eventually } from '../support/eventually';
import { call } from '../support/legacy-calls';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { startTestService } from '../support/service';

/**
 * Noise learned as Diffy learns it (a sample of calls asked of the legacy service twice), fields
 * the operator ignores, and comparisons dropped when too many are pending, on a real port.
 */
describe('Comparing with the legacy service', () => {
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;
  const start = async (extra: Record<string, string>) => {
    service = await startTestService({
      DEMO_DATA: 'off',
      LEGACY_URL: legacy.url,
      SHADOW_FLUSH_MS: '20',
      ROUTES: 'HelloWorld=shadow',
      ...extra,
    });
    return service;
  };
  const report = () => shadowReport((service as RunningService).store, {});
  const RESULT = '/Envelope/Body/HelloWorldResponse/HelloWorldResult';

  beforeEach(async () => {
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  test('a field the legacy service changes between two answers is learned as noise and reported apart', async () => {
    legacy.behaviour.noise = true;
    const { url } = await start({ SHADOW_NOISE_SAMPLE: '1' });
    await call(url, 'soap11');
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    expect(found.operations).toEqual([expect.objectContaining({ compared: 1, noisy: 1, different: 0 })]);
    expect(found.differences).toEqual([
      expect.objectContaining({ path: RESULT, noisy: true, localExample: 'Hello World' }),
    ]);
    // The sample was asked twice: the caller's request and the noise probe.
    expect(legacy.requestsFor('HelloWorld')).toHaveLength(2);
  });

  test('without the sample, the same change is a difference', async () => {
    legacy.behaviour.noise = true;
    const { url } = await start({ SHADOW_NOISE_SAMPLE: '0' });
    await call(url, 'soap11');
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    expect(found.operations).toEqual([expect.objectContaining({ compared: 1, different: 1 })]);
    expect(found.differences).toEqual([expect.objectContaining({ path: RESULT, noisy: false })]);
    expect(legacy.requestsFor('HelloWorld')).toHaveLength(1);
  });

  test('SHADOW_IGNORE names a field that does not count', async () => {
    legacy.behaviour.differ = { from: 'Hello World', to: 'Hello Legacy' };
    const { url } = await start({
      SHADOW_NOISE_SAMPLE: '0',
      SHADOW_IGNORE: 'HelloWorld:/Envelope/Body/*/HelloWorldResult',
    });
    await call(url, 'soap12');
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    expect(found.operations).toEqual([expect.objectContaining({ binding: 'soap12', noisy: 1, different: 0 })]);
  });

  test('past SHADOW_MAX_PENDING a comparison is dropped and counted; the call is answered', async () => {
    legacy.behaviour.hold = true;
    const { url } = await start({ ROUTES: 'HelloWorld=canary', SHADOW_MAX_PENDING: '1', SHADOW_NOISE_SAMPLE: '0' });
    const first = await call(url, 'json');
    // The first comparison waits for the held legacy answer, so the second finds no room.
    await eventually(
      async () => legacy.requests.length,
      (count) => count === 1,
    );
    const second = await call(url, 'json');
    expect([first.status, second.status]).toEqual([200, 200]);
    await eventually(report, (figures) => figures.operations[0]?.dropped === 1);
    legacy.release();
    const found = await eventually(report, (figures) => figures.operations[0]?.compared === 1);
    expect(found.operations).toEqual([expect.objectContaining({ dropped: 1, compared: 1, identical: 1 })]);
  });

  test('canary: a legacy service that fails costs the caller nothing and counts as a legacy error', async () => {
    legacy.behaviour.fail = 'close';
    const { url } = await start({ ROUTES: 'HelloWorld=canary' });
    const answer = await call(url, 'http-get');
    expect(answer.status).toBe(200);
    const found = await eventually(report, (figures) => figures.operations.length > 0);
    expect(found.operations).toEqual([expect.objectContaining({ legacyErrors: 1, compared: 0 })]);
  });
});
