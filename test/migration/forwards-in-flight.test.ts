import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import { eventually } from '../support/eventually';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { type RemoteResponse, remoteFetch } from '../support/remote-client';
import { envelope11, NS } from '../support/soap';
import { startTestService } from '../support/service';

/**
 * Calls waiting for the legacy service are bounded per address and per caller (every caller
 * without credentials counting as one), so that callers let in anonymously cannot make the
 * service hold legacy answers without limit; past the bound a call is refused at once, as a rule
 * of the service refuses one, and never sent on.
 */
describe('Forwarded calls in flight', () => {
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;

  beforeEach(async () => {
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    legacy.release();
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  const helloFrom = (from: string) =>
    remoteFetch(`${(service as RunningService).url}/GetStudentsNote.asmx`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
      body: envelope11(`<HelloWorld xmlns="${NS}" />`),
      from,
    });
  const forwarded = (count: number) =>
    eventually(
      async () => legacy.requestsFor('HelloWorld').length,
      (seen) => seen === count,
    );
  const expectBusy = (answer: RemoteResponse) => {
    expect(answer.status).toBe(500);
    expect(answer.text).toContain('<faultcode>soap:Server</faultcode>');
    expect(answer.text).toContain('Too many calls are waiting for the legacy service');
  };

  test.each(['legacy', 'shadow'])(
    '%s: past the bound of an address, and of the anonymous callers, a call is refused at once',
    async (route) => {
      service = await startTestService({
        DEMO_DATA: 'off',
        LEGACY_URL: legacy.url,
        ROUTES: `HelloWorld=${route}`,
        LOCAL_NETWORKS: '127.0.0.1/32',
        LEGACY_IN_FLIGHT_PER_ADDRESS: '2',
        LEGACY_IN_FLIGHT_PER_CALLER: '3',
      });
      legacy.behaviour.hold = true;
      const held = [helloFrom('127.0.0.2'), helloFrom('127.0.0.2')];
      await forwarded(2);
      expectBusy(await helloFrom('127.0.0.2'));
      held.push(helloFrom('127.0.0.3'));
      await forwarded(3);
      // A third address, but the anonymous callers together have their three.
      expectBusy(await helloFrom('127.0.0.4'));
      // Another caller (this machine's) is not held back by them.
      held.push(helloFrom('127.0.0.1'));
      await forwarded(4);
      legacy.release();
      for (const answer of await Promise.all(held)) expect(answer.status).toBe(200);
      // The slots are given back with the answers.
      const after = await helloFrom('127.0.0.4');
      expect(after.status).toBe(200);
      expect(legacy.requestsFor('HelloWorld')).toHaveLength(5);
    },
  );

  test('canary: past the bound the caller is answered here all the same, and the comparison dropped', async () => {
    service = await startTestService({
      DEMO_DATA: 'off',
      LEGACY_URL: legacy.url,
      ROUTES: 'HelloWorld=canary',
      LOCAL_NETWORKS: '127.0.0.1/32',
      SHADOW_FLUSH_MS: '20',
      SHADOW_NOISE_SAMPLE: '0',
      LEGACY_IN_FLIGHT_PER_ADDRESS: '1',
    });
    legacy.behaviour.hold = true;
    expect((await helloFrom('127.0.0.2')).status).toBe(200);
    await forwarded(1);
    expect((await helloFrom('127.0.0.2')).status).toBe(200);
    const report = () => shadowReport((service as RunningService).store, {});
    await eventually(report, (found) => found.operations[0]?.dropped === 1);
    legacy.release();
    const found = await eventually(report, (figures) => figures.operations[0]?.compared === 1);
    expect(found.operations).toEqual([expect.objectContaining({ dropped: 1, compared: 1 })]);
    expect(legacy.requestsFor('HelloWorld')).toHaveLength(1);
  });

  test('the bound counts each call until its answer is passed on, failures included', async () => {
    service = await startTestService({
      DEMO_DATA: 'off',
      LEGACY_URL: legacy.url,
      ROUTES: 'HelloWorld=legacy',
      LOCAL_NETWORKS: '127.0.0.1/32',
      LEGACY_IN_FLIGHT_PER_ADDRESS: '1',
    });
    legacy.behaviour.fail = 'close';
    for (let index = 0; index < 3; index++) expect((await helloFrom('127.0.0.2')).status).toBe(500);
    legacy.behaviour.fail = undefined;
    expect((await helloFrom('127.0.0.2')).status).toBe(200);
  });
});
