import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { get, NS, post, soap11 } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const subjects = () => `${service.url}/GetTeacherSubjects.asmx/GetTeacherSubjectsByID`;

const expectRefused = (response: { status: number; headers: Headers; text: string }, message: string) => {
  expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
    500,
    'text/plain; charset=utf-8',
    `${message}\r\n`,
  ]);
};

describe("ASP.NET's request validation on HTTP GET and POST", () => {
  test('a query value with markup is refused, the value HTML-encoded in the message', async () => {
    expectRefused(
      await get(`${subjects()}?Tid=${encodeURIComponent('<b>')}&TClassid=1`),
      'A potentially dangerous Request.QueryString value was detected from the client (Tid=&quot;&lt;b&gt;&quot;).',
    );
  });

  test('a form value is refused as Request.Form', async () => {
    expectRefused(
      await post(subjects(), FORM, `Tid=1&TClassid=${encodeURIComponent('<!--')}`),
      'A potentially dangerous Request.Form value was detected from the client (TClassid=&quot;&lt;!--&quot;).',
    );
  });

  test.each(['</x', '<?xml', 'a&#65;', '<Z'])('%p is dangerous', async (value) => {
    const response = await get(`${subjects()}?Tid=${encodeURIComponent(value)}&TClassid=1`);
    expect(response.status).toBe(500);
    expect(response.text).toMatch(/^A potentially dangerous Request\.QueryString value/);
  });

  test.each(['a < b', '1<2', '<', 'x&y', '&amp', '<1', '<\u0628'])('%p is not', async (value) => {
    const response = await get(`${subjects()}?Tid=${encodeURIComponent(value)}&TClassid=1`);
    expect([response.status, response.text]).toEqual([200, '']);
  });

  test('the name shown is the one the client wrote, and a long value is shown around the match', async () => {
    const value = `${'a'.repeat(30)}<script>${'b'.repeat(30)}`;
    expectRefused(
      await get(`${subjects()}?TID=${encodeURIComponent(value)}&TClassid=1`),
      'A potentially dangerous Request.QueryString value was detected from the client ' +
        `(TID=&quot;...${'a'.repeat(10)}&lt;script&gt;${'b'.repeat(12)}...&quot;).`,
    );
  });

  test('every field is validated, parameters or not, before a missing parameter is reported', async () => {
    expectRefused(
      await get(`${subjects()}?extra=${encodeURIComponent('<img>')}`),
      'A potentially dangerous Request.QueryString value was detected from the client (extra=&quot;&lt;img&gt;&quot;).',
    );
  });

  test('SOAP bodies are not validated: markup in a parameter is data', async () => {
    const response = await soap11(
      `${service.url}/GetTeacherSubjects.asmx`,
      `<GetTeacherSubjectsByID xmlns="${NS}"><Tid>&lt;b&gt;</Tid><TClassid>1</TClassid></GetTeacherSubjectsByID>`,
      `"${NS}GetTeacherSubjectsByID"`,
    );
    expect(response.status).toBe(200);
  });
});
