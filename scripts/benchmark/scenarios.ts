/**
 * What the benchmark sends: HelloWorld (a string result) and GetStudentInfoById for a student the
 * benchmark's empty store does not hold (a void answer in the documented profile, with a parameter
 * to decode and a store lookup on the measured path) over SOAP 1.1, SOAP 1.2 and HTTP GET. The
 * requests are shaped as the ASMX help pages show them, as generated clients send.
 */

export interface Scenario {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const NAMESPACE = 'http://tempuri.org/';
const SOAP11_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
const SOAP12_ENVELOPE = 'http://www.w3.org/2003/05/soap-envelope';
const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

function envelope(prefix: string, envelopeNamespace: string, operationElement: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<${prefix}:Envelope ${XSI_XSD} xmlns:${prefix}="${envelopeNamespace}">\n` +
    `  <${prefix}:Body>\n    ${operationElement}\n  </${prefix}:Body>\n</${prefix}:Envelope>`
  );
}

export interface Operation {
  readonly label: string;
  readonly endpoint: string;
  readonly name: string;
  readonly parameters: ReadonlyArray<readonly [string, string]>;
}

export const HELLO_WORLD: Operation = {
  label: 'HelloWorld',
  endpoint: '/GetStudentsNote.asmx',
  name: 'HelloWorld',
  parameters: [],
};
export const VOID_LOOKUP: Operation = {
  label: 'GetStudentInfoById (void)',
  endpoint: '/GetStudentsInformation.asmx',
  name: 'GetStudentInfoById',
  parameters: [['StudentId', '482913']],
};

function operationElement(operation: Operation): string {
  if (operation.parameters.length === 0) return `<${operation.name} xmlns="${NAMESPACE}" />`;
  const children = operation.parameters.map(([name, value]) => `<${name}>${value}</${name}>`).join('');
  return `<${operation.name} xmlns="${NAMESPACE}">${children}</${operation.name}>`;
}

export function scenariosFor(operation: Operation): Scenario[] {
  const query = operation.parameters
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  return [
    {
      name: `${operation.label} SOAP 1.1`,
      method: 'POST',
      path: operation.endpoint,
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NAMESPACE}${operation.name}"` },
      body: envelope('soap', SOAP11_ENVELOPE, operationElement(operation)),
    },
    {
      name: `${operation.label} SOAP 1.2`,
      method: 'POST',
      path: operation.endpoint,
      headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      body: envelope('soap12', SOAP12_ENVELOPE, operationElement(operation)),
    },
    {
      name: `${operation.label} HTTP GET`,
      method: 'GET',
      path: `${operation.endpoint}/${operation.name}${query ? `?${query}` : ''}`,
      headers: {},
      body: '',
    },
  ];
}

export const SCENARIOS: readonly Scenario[] = [...scenariosFor(HELLO_WORLD), ...scenariosFor(VOID_LOOKUP)];
