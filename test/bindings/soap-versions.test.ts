import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { envelope11, envelope12, NS, post, SOAP11_ENV, SOAP12_ENV } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const helloPath = () => `${service.url}/GetStudentsNote.asmx`;
const HELLO = `<HelloWorld xmlns="${NS}" />`;
const SOAP12_TYPE = 'application/soap+xml; charset=utf-8';

describe('the envelope decides the version, as ASMX reads it', () => {
  test('a SOAP 1.2 envelope sent as text/xml is answered as SOAP 1.2', async () => {
    const response = await post(helloPath(), { 'Content-Type': 'text/xml; charset=utf-8' }, envelope12(HELLO));
    expect([response.status, response.headers.get('content-type')]).toEqual([200, SOAP12_TYPE]);
    expect(response.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12_ENV}" ` +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
        `<soap:Body><HelloWorldResponse xmlns="${NS}"><HelloWorldResult>Hello World</HelloWorldResult>` +
        '</HelloWorldResponse></soap:Body></soap:Envelope>',
    );
  });

  test('and its faults are SOAP 1.2 faults', async () => {
    const response = await post(
      helloPath(),
      { 'Content-Type': 'text/xml; charset=utf-8' },
      envelope12(`<Nope xmlns="${NS}" />`),
    );
    expect([response.status, response.headers.get('content-type')]).toEqual([500, SOAP12_TYPE]);
    expect(response.text).toContain('<soap:Value>soap:Sender</soap:Value>');
  });

  test('a SOAP 1.1 envelope sent as application/soap+xml is 415, text/xml, empty', async () => {
    const response = await post(helloPath(), { 'Content-Type': SOAP12_TYPE }, envelope11(HELLO));
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
      415,
      'text/xml; charset=utf-8',
      '',
    ]);
  });

  test('a SOAP 1.1 envelope sent as text/xml is still SOAP 1.1', async () => {
    const response = await post(
      helloPath(),
      { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}HelloWorld"` },
      envelope11(HELLO),
    );
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/xml; charset=utf-8']);
    expect(response.text).toContain(`<soap:Envelope xmlns:soap="${SOAP11_ENV}"`);
  });
});

describe('malformed XML', () => {
  test.each([
    ['SOAP 1.2', SOAP12_TYPE],
    ['SOAP 1.1', 'text/xml; charset=utf-8'],
  ])('over %s is 400 with its own Content-Type and no body', async (_name, contentType) => {
    const response = await post(
      helloPath(),
      { 'Content-Type': contentType },
      `<soap:Envelope xmlns:soap="${SOAP12_ENV}">`,
    );
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([400, contentType, '']);
  });

  test('an empty SOAP 1.2 body is 400 too', async () => {
    const response = await post(helloPath(), { 'Content-Type': SOAP12_TYPE }, '');
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([400, SOAP12_TYPE, '']);
  });
});

describe('a form POSTed to the endpoint itself', () => {
  test('is a SOAP 1.2 Receiver fault: the form is not XML', async () => {
    const response = await post(
      `${service.url}/AuthCodeSending.asmx`,
      { 'Content-Type': 'application/x-www-form-urlencoded' },
      'code=1234&phone=0500000000',
    );
    expect([response.status, response.headers.get('content-type')]).toEqual([500, SOAP12_TYPE]);
    expect(response.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP12_ENV}" ` +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
        '<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason>' +
        '<soap:Text xml:lang="en">Server was unable to process request. ---&gt; Data at the root level is invalid. ' +
        'Line 1, position 1.</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>',
    );
  });
});
