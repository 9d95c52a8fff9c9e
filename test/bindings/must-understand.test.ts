import type { RunningService } from '../../src/service';
import { addTestCaller, TEST_OUTBOX_KEY, usernameTokenHeader } from '../support/callers';
import { startTestService } from '../support/service';
import { NS, post, SOAP11_ENV, SOAP12_ENV } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService({ OUTBOX_KEY: TEST_OUTBOX_KEY, ACCESS_REFRESH_MS: '200' });
});
afterAll(() => service.close());

const helloPath = () => `${service.url}/GetStudentsNote.asmx`;
const HELLO = `<HelloWorld xmlns="${NS}" />`;
const SOAP11_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` };
const SOAP12_HEADERS = { 'Content-Type': 'application/soap+xml; charset=utf-8' };

const envelope = (namespace: string, header: string, body = HELLO) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${namespace}">` +
  `<soap:Header>${header}</soap:Header><soap:Body>${body}</soap:Body></soap:Envelope>`;

const DECLARATIONS =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

describe('header blocks marked mustUnderstand', () => {
  test('SOAP 1.1: a block the service does not process is a MustUnderstand fault, without detail', async () => {
    const header = '<t:Trace xmlns:t="urn:trace" soap:mustUnderstand="1">1</t:Trace>';
    const response = await post(helloPath(), SOAP11_HEADERS, envelope(SOAP11_ENV, header));
    expect([response.status, response.headers.get('content-type')]).toEqual([500, 'text/xml; charset=utf-8']);
    expect(response.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENV}" ${DECLARATIONS}>` +
        '<soap:Body><soap:Fault><faultcode>soap:MustUnderstand</faultcode>' +
        '<faultstring>SOAP header Trace was not understood.</faultstring></soap:Fault></soap:Body></soap:Envelope>',
    );
  });

  test.each(['true', '1'])(
    'SOAP 1.2 (mustUnderstand="%s"): the fault names the block in a NotUnderstood header',
    async (value) => {
      const header = `<t:Trace xmlns:t="urn:trace" soap:mustUnderstand="${value}">1</t:Trace>`;
      const response = await post(helloPath(), SOAP12_HEADERS, envelope(SOAP12_ENV, header));
      expect([response.status, response.headers.get('content-type')]).toEqual([
        500,
        'application/soap+xml; charset=utf-8',
      ]);
      expect(response.text).toBe(
        `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12_ENV}" ${DECLARATIONS}>` +
          '<soap:Header><soap:NotUnderstood qname="q0:Trace" xmlns:q0="urn:trace" /></soap:Header>' +
          '<soap:Body><soap:Fault><soap:Code><soap:Value>soap:MustUnderstand</soap:Value></soap:Code>' +
          '<soap:Reason><soap:Text xml:lang="en">SOAP header Trace was not understood.</soap:Text></soap:Reason>' +
          '</soap:Fault></soap:Body></soap:Envelope>',
      );
    },
  );

  test.each([
    ['not marked', '<t:Trace xmlns:t="urn:trace">1</t:Trace>'],
    ['marked "0"', '<t:Trace xmlns:t="urn:trace" soap:mustUnderstand="0">1</t:Trace>'],
    ['marked in another namespace', `<t:Trace xmlns:t="urn:trace" xmlns:o="${SOAP12_ENV}" o:mustUnderstand="1" />`],
  ])('a block %s is ignored, as before', async (_name, header) => {
    const response = await post(helloPath(), SOAP11_HEADERS, envelope(SOAP11_ENV, header));
    expect(response.status).toBe(200);
  });

  test('the operation does not run when a block is not understood', async () => {
    const header = '<t:Trace xmlns:t="urn:trace" soap:mustUnderstand="1" />';
    const body = `<AuthCode xmlns="${NS}"><code>12</code><phone>x</phone></AuthCode>`;
    const response = await post(
      `${service.url}/AuthCodeSending.asmx`,
      { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}AuthCode"` },
      envelope(SOAP11_ENV, header, body),
    );
    // The operation would refuse a two-digit code; the header is refused first.
    expect(response.text).toContain('<faultcode>soap:MustUnderstand</faultcode>');
  });

  test.each([
    ['SOAP 1.1', SOAP11_ENV, SOAP11_HEADERS],
    ['SOAP 1.2', SOAP12_ENV, SOAP12_HEADERS],
  ])('%s: WS-Security, which the service processes, is understood', async (_name, namespace, headers) => {
    const secret = (await addTestCaller(service.store, { name: `understood-${namespace.length}`, secret: true })) ?? '';
    await service.readCallers();
    const security = usernameTokenHeader(`understood-${namespace.length}`, secret)
      .replace('<soap:Header>', '')
      .replace('</soap:Header>', '')
      .replace('<wsse:Security ', '<wsse:Security soap:mustUnderstand="1" ');
    const response = await post(helloPath(), headers, envelope(namespace, security));
    expect(response.status).toBe(200);
    expect(response.text).toContain('<HelloWorldResult>Hello World</HelloWorldResult>');
  });
});
