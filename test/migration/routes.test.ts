import type { RunningService } from '../../src/service';
import { shadowReport } from '../../src/migration/shadow-report';
import { startLegacyStandIn, type LegacyStandIn, type StandInBinding } from '../support/legacy-asmx';
import { addTestCaller } from '../support/callers';
import { eventually } from '../support/eventually';
import { BINDINGS, call, PATH } from '../support/legacy-calls';
import { startTestService } from '../support/service';

/**
 * Every route on every binding, on a real port, with the legacy stand-in on loopback: who answers,
 * what the legacy service is sent, what a caller gets when it is down, and that pages stay here.
 */

describe('Routes to the legacy service', () => {
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;
  const start = async (routes: string, extra: Record<string, string> = {}) => {
    service = await startTestService({
      DEMO_DATA: 'off',
      LEGACY_URL: legacy.url,
      SHADOW_FLUSH_MS: '20',
      ROUTES: routes,
      SHADOW_NOISE_SAMPLE: '0',
      ...extra,
    });
    return service;
  };
  const documentOf = (binding: StandInBinding) =>
    (legacy.documents.get(`HelloWorld ${binding}`)?.body ?? '').replace('{{noise}}', '');
  const report = () => shadowReport((service as RunningService).store, {});

  beforeEach(async () => {
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  test.each(BINDINGS)(
    'legacy on %s: the legacy answer, bytes unchanged, with the caller in X-Forwarded-For',
    async (binding) => {
      const { url } = await start('default=legacy');
      const answer = await call(url, binding);
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(documentOf(binding));
      const [received] = legacy.requests;
      expect(received.binding).toBe(binding);
      expect(received.headers['x-forwarded-for']).toBe('127.0.0.1');
      expect(received.url.startsWith(PATH)).toBe(true);
    },
  );

  test.each(BINDINGS)('shadow on %s: the legacy answer; the two compared identical as infosets', async (binding) => {
    const { url } = await start('default=shadow');
    const answer = await call(url, binding);
    expect(answer.text).toBe(documentOf(binding));
    const figures = await eventually(report, (found) => found.operations.length > 0);
    expect(figures.operations).toEqual([
      expect.objectContaining({ operation: 'HelloWorld', binding, compared: 1, identical: 1 }),
    ]);
  });

  test.each(BINDINGS)(
    'canary on %s: this service answers; the legacy answer is fetched and compared',
    async (binding) => {
      legacy.behaviour.differ = { from: 'Hello World', to: 'Hello Legacy' };
      const { url } = await start('default=local,HelloWorld=canary');
      const answer = await call(url, binding);
      expect(answer.text).toContain('Hello World');
      const figures = await eventually(report, (found) => found.operations.length > 0);
      expect(figures.operations).toEqual([expect.objectContaining({ binding, compared: 1, different: 1 })]);
      const paths = figures.differences.map((difference) => difference.path);
      const expected = binding.startsWith('soap')
        ? '/Envelope/Body/HelloWorldResponse/HelloWorldResult'
        : binding === 'json'
          ? '/d'
          : '/string';
      expect(paths).toEqual([expected]);
      expect(figures.differences[0]).toMatchObject({ localExample: 'Hello World', legacyExample: 'Hello Legacy' });
    },
  );

  test.each(BINDINGS)('local on %s: the legacy service is never asked', async (binding) => {
    legacy.behaviour.differ = { from: 'Hello World', to: 'Hello Legacy' };
    const { url } = await start('default=legacy,HelloWorld=local');
    const answer = await call(url, binding);
    expect(answer.text).toContain('Hello World');
    // The other operation, routed to legacy, is the deterministic signal that forwarding works at all.
    await call(url, 'http-get', 'GetStudentsNoteType', '/GetNoteType.asmx');
    expect(legacy.requests.map((request) => request.operation)).toEqual(['GetStudentsNoteType']);
  });

  test("a user and password in LEGACY_URL go to the legacy service as HTTP Basic, never the caller's", async () => {
    const { url } = await start('default=legacy', {
      LEGACY_URL: legacy.url.replace('http://', 'http://school:s%40fe@'),
      ACCESS_REFRESH_MS: '200',
    });
    // A caller let in by its own secret: its Authorization header is checked here and not passed on.
    const secret = await addTestCaller((service as RunningService).store, { name: 'portal', secret: true });
    const ask = async () => {
      const response = await fetch(`${url}${PATH}/HelloWorld`, {
        headers: { Authorization: `Basic ${Buffer.from(`portal:${secret}`).toString('base64')}` },
      });
      await response.text();
      return response.status;
    };
    // The service notices the new caller within ACCESS_REFRESH_MS; asked seldom, so that the refusals
    // before then stay under the wrong-secret throttle.
    expect(await eventually(ask, (status) => status === 200, { intervalMs: 500 })).toBe(200);
    expect(legacy.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('school:s@fe').toString('base64')}`);
  });

  test('WSDL, DISCO and help pages are always answered here', async () => {
    const { url } = await start('default=legacy');
    for (const page of [`${PATH}?WSDL`, `${PATH}?disco`, PATH, `${PATH}?op=HelloWorld`]) {
      const response = await fetch(`${url}${page}`);
      expect(response.status).toBe(200);
      await response.text();
    }
    await call(url, 'http-get');
    expect(legacy.requests).toHaveLength(1);
  });

  test.each([
    ['soap11', 500, '<faultcode>soap:Server</faultcode>'],
    ['soap12', 500, '<soap:Value>soap:Receiver</soap:Value>'],
    ['http-get', 500, 'The legacy service that answers this operation did not answer'],
    ['json', 500, '"ExceptionType"'],
  ] as const)(
    'a legacy service that closes the connection: %s answers in its own shape',
    async (binding, status, shape) => {
      legacy.behaviour.fail = 'close';
      const { url } = await start('default=legacy');
      const answer = await call(url, binding);
      expect(answer.status).toBe(status);
      expect(answer.text).toContain(shape);
    },
  );

  test('a legacy service slower than LEGACY_TIMEOUT_MS is unavailable: a legacy error in shadow', async () => {
    legacy.behaviour.delayMs = 2_000;
    const { url } = await start('default=shadow', { LEGACY_TIMEOUT_MS: '200' });
    const answer = await call(url, 'soap11');
    expect(answer.status).toBe(500);
    expect(answer.text).toContain('did not answer');
    const figures = await eventually(report, (found) => found.operations.length > 0);
    expect(figures.operations).toEqual([expect.objectContaining({ legacyErrors: 1, compared: 0 })]);
  });

  test('a legacy answer larger than LEGACY_MAX_BYTES is not passed on', async () => {
    const large = `<string xmlns="http://tempuri.org/">${'x'.repeat(2048)}</string>`;
    legacy.documents.set('HelloWorld http-get', { contentType: 'text/xml; charset=utf-8', body: large });
    const { url } = await start('default=legacy', { LEGACY_MAX_BYTES: '1024' });
    const answer = await call(url, 'http-get');
    expect(answer.status).toBe(500);
    expect(answer.text).toBe('The legacy service that answers this operation did not answer; try again later.\r\n');
  });

  test('a caller refused here never reaches the legacy service', async () => {
    const { url } = await start('default=legacy', { LOCAL_NETWORKS: '10.0.0.0/8' });
    const answer = await call(url, 'soap11', 'GetStudentsNoteType', '/GetNoteType.asmx');
    expect([401, 500]).toContain(answer.status);
    expect(answer.text).toContain('Access denied');
    // HelloWorld is public: its forwarding is the signal that the refused call would have been sent by now.
    await call(url, 'soap11');
    expect(legacy.requests.map((request) => request.operation)).toEqual(['HelloWorld']);
  });
});
