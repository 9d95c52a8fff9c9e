import { SoapBinding, type SoapRequest } from '../../src/bindings/soap/soap-binding';
import { SOAP11, SOAP12 } from '../../src/bindings/soap/soap-version';
import { loadConfig } from '../../src/config/service-config';
import { type Catalog, loadCatalog } from '../../src/contract/catalog';
import { WSDL_DIRECTORY } from '../../src/contract/wsdl-directory';
import type { Decoded } from '../../src/pipeline/binding';
import type { CallError } from '../../src/pipeline/call-error';
import { Exchange } from '../../src/pipeline/exchange';

const SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope';
const TEXT_XML = 'text/xml; charset=utf-8';

let catalog: Catalog;
let binding: SoapBinding;

beforeAll(async () => {
  catalog = await loadCatalog(WSDL_DIRECTORY);
  binding = new SoapBinding(catalog, loadConfig({}));
});

/** A SOAP 1.2 envelope calling HelloWorld, with `header` in its Header. */
function helloIn12(header = ''): string {
  return (
    `<soap:Envelope xmlns:soap="${SOAP12_ENV}"><soap:Header>${header}</soap:Header>` +
    '<soap:Body><HelloWorld xmlns="http://tempuri.org/" /></soap:Body></soap:Envelope>'
  );
}

/** Decodes `body` sent as text/xml (SOAP 1.1 announced), with the announced state frozen: decode may not write it. */
async function decode(body: string): Promise<{ announced: SoapRequest; decoded: Decoded<SoapRequest> }> {
  const endpoint = catalog.endpointByPath('/GetStudentsNote.asmx');
  if (!endpoint) throw new Error('no /GetStudentsNote.asmx in the catalog');
  const announced = Object.freeze(binding.requestTo(endpoint, TEXT_XML));
  const request = {
    method: 'POST',
    target: '/GetStudentsNote.asmx',
    address: '127.0.0.1',
    headers: { 'content-type': TEXT_XML },
    readBody: async () => ({ kind: 'body', body: Buffer.from(body) }) as const,
  };
  const exchange = new Exchange(request, undefined, 1024 * 1024, { publicBaseUrl: undefined, port: 8080 });
  return { announced, decoded: await binding.decode(exchange, announced) };
}

describe("the SOAP binding's decode returns what the envelope showed and writes no state", () => {
  test('a SOAP 1.2 envelope sent as text/xml: the call, and a state answered in 1.2', async () => {
    const { announced, decoded } = await decode(helloIn12());
    expect(announced.version).toBe(SOAP11);
    if (!decoded.ok) throw new Error(`not decoded: ${String(decoded.error)}`);
    expect([decoded.call.operation.name, decoded.call.caller.binding]).toEqual(['HelloWorld', 'soap12']);
    expect(decoded.state.version).toBe(SOAP12);
    const answer = binding.writeResult(decoded.state, decoded.call, 'Hello World');
    expect(answer.contentType).toBe('application/soap+xml; charset=utf-8');
  });

  test('a header block not understood: a failure returned with the block, its fault in 1.2', async () => {
    const { announced, decoded } = await decode(helloIn12('<t:Trace xmlns:t="urn:trace" soap:mustUnderstand="1" />'));
    expect(announced.notUnderstood).toBeUndefined();
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.state.notUnderstood?.localName).toBe('Trace');
    const fault = binding.writeError(decoded.state, decoded.error as CallError);
    expect(fault.contentType).toBe('application/soap+xml; charset=utf-8');
    expect(String(fault.body)).toContain('<soap:NotUnderstood qname="q0:Trace" xmlns:q0="urn:trace" />');
  });

  test('an envelope of the version announced keeps the state it was given: no copy on the hot path', async () => {
    const body =
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      '<soap:Body><HelloWorld xmlns="http://tempuri.org/" /></soap:Body></soap:Envelope>';
    const { announced, decoded } = await decode(body);
    expect(decoded.ok).toBe(true);
    expect(decoded.state).toBe(announced);
  });
});
