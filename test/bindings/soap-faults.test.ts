import type { RunningService } from '../../src/service';
import { startTestService } from '../support/service';
import { NS, post, soap11, SOAP11_ENV, SOAP12_ENV } from '../support/soap';

let service: RunningService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const reportPath = () => `${service.url}/GenerateStudentReport.asmx`;
const XML_HEADERS = { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}GenerateReport"` };

/** The request of wire-conventions.md whose bad int ASMX reports at (4, 76). */
function reportRequest(
  envelopeNamespace: string,
  prefix: string,
  studentId: string,
  tail = '<studentClass>A1</studentClass>',
): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<${prefix}:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:${prefix}="${envelopeNamespace}">\n` +
    `  <${prefix}:Body>\n` +
    `    <GenerateReport xmlns="${NS}"><studentId>${studentId}</studentId>${tail}</GenerateReport>\n` +
    `  </${prefix}:Body>\n</${prefix}:Envelope>`
  );
}

describe('requests that cannot be read', () => {
  test.each([
    ['malformed XML', '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>'],
    ['an empty body', ''],
    ['text that is not XML', 'hello'],
    [
      'an undefined entity',
      `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Body><HelloWorld xmlns="${NS}">&nope;</HelloWorld>` +
        '</soap:Body></soap:Envelope>',
    ],
  ])('%s is 400 with an empty text/xml body', async (_name, body) => {
    const response = await post(reportPath(), XML_HEADERS, body);
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
      400,
      'text/xml; charset=utf-8',
      '',
    ]);
  });

  test.each(['application/json', 'text/plain'])(
    'Content-Type %s is 415 with an empty text/xml body',
    async (contentType) => {
      const response = await post(
        reportPath(),
        { 'Content-Type': contentType },
        reportRequest(SOAP11_ENV, 'soap', '1'),
      );
      expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
        415,
        'text/xml; charset=utf-8',
        '',
      ]);
    },
  );

  test('a root element that is not an envelope is a VersionMismatch fault with the Upgrade header', async () => {
    const response = await post(reportPath(), XML_HEADERS, `<AuthCode xmlns="${NS}"><code>1</code></AuthCode>`);
    expect(response.status).toBe(500);
    expect(response.text).toBe(
      `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${SOAP11_ENV}" ` +
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
        `<soap:Header><soap12:Upgrade xmlns:soap12="${SOAP12_ENV}">` +
        `<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="${SOAP11_ENV}" />` +
        `<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="${SOAP12_ENV}" />` +
        '</soap12:Upgrade></soap:Header>' +
        '<soap:Body><soap:Fault><faultcode>soap:VersionMismatch</faultcode>' +
        '<faultstring>Possible SOAP version mismatch: Envelope namespace http://tempuri.org/ was unexpected. ' +
        `Expecting ${SOAP11_ENV}.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`,
    );
  });

  test('a SOAP 1.1 envelope sent as SOAP 1.2 is 415 with an empty text/xml body, as ASMX answers it', async () => {
    const response = await post(
      reportPath(),
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      reportRequest(SOAP11_ENV, 'soap', '1'),
    );
    expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
      415,
      'text/xml; charset=utf-8',
      '',
    ]);
  });

  test('a root element that is not an envelope, sent as SOAP 1.2, is a VersionMismatch in 1.2', async () => {
    const response = await post(
      reportPath(),
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      `<AuthCode xmlns="${NS}"><code>1</code></AuthCode>`,
    );
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/soap+xml; charset=utf-8');
    expect(response.text).toContain(
      '<soap:Value>soap:VersionMismatch</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">' +
        `Possible SOAP version mismatch: Envelope namespace ${NS} was unexpected. ` +
        `Expecting ${SOAP12_ENV}.</soap:Text>`,
    );
  });

  test('an envelope without a Body is a Client fault', async () => {
    const response = await post(
      reportPath(),
      XML_HEADERS,
      `<soap:Envelope xmlns:soap="${SOAP11_ENV}"><soap:Header /></soap:Envelope>`,
    );
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; ' +
        'Request format is invalid: Missing required soap:Body element.</faultstring>',
    );
  });
});

describe('int parameters', () => {
  test('a value that is not an int is a Client fault at the node after it (4, 76)', async () => {
    const response = await post(reportPath(), XML_HEADERS, reportRequest(SOAP11_ENV, 'soap', 'abc'));
    expect(response.status).toBe(500);
    expect(response.text).toContain(
      '<soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; ' +
        'There is an error in XML document (4, 76). ---&gt; Input string was not in a correct format.</faultstring>' +
        '<detail /></soap:Fault>',
    );
  });

  test('over SOAP 1.2 it is a Sender fault at the same place', async () => {
    const response = await post(
      reportPath(),
      { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      reportRequest(SOAP12_ENV, 'soap12', 'abc'),
    );
    expect(response.text).toContain(
      '<soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">' +
        'Server was unable to read request. ---&gt; There is an error in XML document (4, 76). ---&gt; ' +
        'Input string was not in a correct format.</soap:Text>',
    );
  });

  test('when the bad int is the last child, the position is the end tag of the operation element', async () => {
    const response = await post(reportPath(), XML_HEADERS, reportRequest(SOAP11_ENV, 'soap', 'x', ''));
    // `    <GenerateReport xmlns="http://tempuri.org/"><studentId>x</studentId></GenerateReport>`: the G after "</".
    expect(response.text).toContain('There is an error in XML document (4, 75).');
  });

  test('a value outside the 32-bit range reports .NET overflow text', async () => {
    const response = await post(reportPath(), XML_HEADERS, reportRequest(SOAP11_ENV, 'soap', '2147483648'));
    expect(response.text).toContain(
      'There is an error in XML document (4, 83). ---&gt; Value was either too large or too small for an Int32.',
    );
  });

  test.each([' 42 ', '+7', '-2147483648', '007'])('%p is accepted as .NET accepts it', async (value) => {
    const response = await post(reportPath(), XML_HEADERS, reportRequest(SOAP11_ENV, 'soap', value));
    expect(response.status).toBe(200);
  });

  test('missing parameters are accepted (absent string null, absent int 0)', async () => {
    const response = await soap11(reportPath(), `<GenerateReport xmlns="${NS}" />`, `"${NS}GenerateReport"`);
    expect(response.status).toBe(200);
    expect(response.text).toContain(`<GenerateReportResponse xmlns="${NS}" />`);
  });
});
