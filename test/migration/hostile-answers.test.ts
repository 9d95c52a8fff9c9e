import { shadowReport } from '../../src/migration/shadow-report';
import type { RunningService } from '../../src/service';
import { eventually } from '../support/eventually';
import { startLegacyStandIn, type LegacyStandIn } from '../support/legacy-asmx';
import { call } from '../support/legacy-calls';
import { startTestService } from '../support/service';

const XML = 'text/xml; charset=utf-8';
const envelope = (content: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${content}</s:Body></s:Envelope>`;
const HOSTILE = {
  'nested 20,000 deep': envelope(`${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}`),
  'with 5,000 attribute names': envelope(
    `<HelloWorldResponse ${Array.from({ length: 5_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`,
  ),
};
const CALLS = 30;

/**
 * A legacy service that answers with documents built to cost the comparison: the service reads
 * them under the answers' budgets, counts them as over budget, and keeps answering its own calls.
 */
describe('A hostile legacy answer, on the shadow route', () => {
  let legacy: LegacyStandIn;
  let service: RunningService | undefined;

  beforeEach(async () => {
    legacy = await startLegacyStandIn();
  });
  afterEach(async () => {
    await service?.close();
    service = undefined;
    await legacy.close();
  });

  test.each(Object.entries(HOSTILE))(
    'an answer %s is over budget; local calls are answered meanwhile',
    async (_, body) => {
      legacy.documents.set('HelloWorld soap11', { contentType: XML, body });
      service = await startTestService({
        DEMO_DATA: 'off',
        LEGACY_URL: legacy.url,
        SHADOW_FLUSH_MS: '20',
        SHADOW_NOISE_SAMPLE: '0',
        ROUTES: 'HelloWorld=shadow',
      });
      const { url } = service;
      // Warmed up first (both routes, and fetch's first use), so that the times below are of the calls alone.
      await call(url, 'json', 'GetStudentsNoteType', '/GetNoteType.asmx');
      await call(url, 'soap11');
      const forwarded = await Promise.all(Array.from({ length: CALLS }, () => call(url, 'soap11')));
      // The caller gets the legacy answer as it came: this service only declines to compare it.
      for (const answer of forwarded) expect(answer.text).toBe(body);
      // The comparisons run now, after the answers: local calls are answered meanwhile.
      const localTimes: number[] = [];
      for (let index = 0; index < 10; index++) {
        const started = performance.now();
        const answer = await call(url, 'json', 'GetStudentsNoteType', '/GetNoteType.asmx');
        expect(answer.status).toBe(200);
        localTimes.push(performance.now() - started);
      }
      const report = await eventually(
        () => shadowReport((service as RunningService).store, {}),
        (found) => found.operations[0]?.overBudget === CALLS + 1,
      );
      expect(report.operations).toEqual([expect.objectContaining({ overBudget: CALLS + 1, compared: 0 })]);
      // Before the budgets one such answer held the event loop for seconds; a shared machine's noise stays well under.
      expect(Math.max(...localTimes)).toBeLessThan(1_000);
    },
  );
});
