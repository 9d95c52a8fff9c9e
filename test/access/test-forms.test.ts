import type { RunningService } from '../../src/service';
import { REMOTE_TEST_SETTINGS } from '../support/callers';
import { remoteFetch } from '../support/remote-client';
import { startTestService } from '../support/service';

/**
 * The HTTP POST test form on an operation page, as ASMX shows it: to local callers; remote ones
 * read ASMX's sentence in its place. TEST_FORMS=all shows it to everyone, off to no one.
 */
const PAGE = '/GetStudentsInformation.asmx?op=GetStudentInfoById';
const SENTENCE = 'The test form is only available for requests from the local machine.';

async function page(service: RunningService, from: string, headers: Record<string, string> = {}): Promise<string> {
  const answer = await remoteFetch(`${service.url}${PAGE}`, { from, headers });
  expect(answer.status).toBe(200);
  return answer.text;
}

describe.each([
  ['local', { local: true, remote: false }],
  ['all', { local: true, remote: true }],
  ['off', { local: false, remote: false }],
] as const)('TEST_FORMS=%s', (setting, shown) => {
  let service: RunningService;
  beforeAll(async () => {
    service = await startTestService({
      ...REMOTE_TEST_SETTINGS,
      DEMO_DATA: 'off',
      TEST_FORMS: setting,
      TRUSTED_PROXIES: '127.0.0.4/32',
    });
  });
  afterAll(() => service.close());

  test(`shows the form to a local caller: ${shown.local}; to a remote one: ${shown.remote}`, async () => {
    const local = await page(service, '127.0.0.1');
    const remote = await page(service, '127.0.0.2');
    const behindProxy = await page(service, '127.0.0.4', { 'X-Forwarded-For': '10.0.0.7' });
    expect([local.includes('<form'), remote.includes('<form'), behindProxy.includes('<form')]).toEqual([
      shown.local,
      shown.remote,
      shown.remote,
    ]);
    if (setting === 'local') expect([remote.includes(SENTENCE), local.includes(SENTENCE)]).toEqual([true, false]);
    // The rest of the page (the samples of the four bindings) is the same for everyone.
    expect(remote).toContain('<h3>SOAP 1.1</h3>');
  });
});
