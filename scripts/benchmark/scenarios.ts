/**
 * What the benchmark sends: HelloWorld (a string result) and GetStudentInfoById for a student the
 * benchmark's empty store does not hold (a void answer in the documented profile, with a parameter
 * to decode and a store lookup on the measured path) over SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST
 * and JSON; and GetStudentInfoById for a student the demo school holds, on a typed service, over
 * SOAP 1.1 and JSON (one record read, written and audited). The requests are shaped as the ASMX
 * help pages show them, as generated clients send, and JSON as ASP.NET AJAX clients send it.
 */

/** The service a scenario is measured on: documented on an empty store, or typed on the demo school. */
export type ServiceKind = 'documented' | 'typed';

export type BindingLabel = 'SOAP 1.1' | 'SOAP 1.2' | 'HTTP GET' | 'HTTP POST' | 'JSON';

export interface Scenario {
  readonly name: string;
  readonly service: ServiceKind;
  readonly binding: BindingLabel;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** What the answer must show for the scenario to measure what it says (a record, not an empty answer). */
  readonly answerShows?: RegExp;
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
  readonly answerShows?: RegExp;
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
/** Student 5 of the demo school a new store gets (seed 1): one record, as SOAP and JSON write it. */
export const REAL_STUDENT: Operation = {
  label: 'GetStudentInfoById typed (real student)',
  endpoint: '/GetStudentsInformation.asmx',
  name: 'GetStudentInfoById',
  parameters: [['StudentId', '5']],
  answerShows: /<StudentId>5<\/StudentId>|"StudentId":5,/,
};

function operationElement(operation: Operation): string {
  if (operation.parameters.length === 0) return `<${operation.name} xmlns="${NAMESPACE}" />`;
  const children = operation.parameters.map(([name, value]) => `<${name}>${value}</${name}>`).join('');
  return `<${operation.name} xmlns="${NAMESPACE}">${children}</${operation.name}>`;
}

export function scenariosFor(operation: Operation, service: ServiceKind = 'documented'): Scenario[] {
  const query = operation.parameters
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const operationPath = `${operation.endpoint}/${operation.name}`;
  const common = { service, answerShows: operation.answerShows };
  const scenario = (binding: BindingLabel, request: Omit<Scenario, 'name' | 'service' | 'binding'>): Scenario => ({
    name: `${operation.label} ${binding}`,
    binding,
    ...common,
    ...request,
  });
  return [
    scenario('SOAP 1.1', {
      method: 'POST',
      path: operation.endpoint,
      headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NAMESPACE}${operation.name}"` },
      body: envelope('soap', SOAP11_ENVELOPE, operationElement(operation)),
    }),
    scenario('SOAP 1.2', {
      method: 'POST',
      path: operation.endpoint,
      headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
      body: envelope('soap12', SOAP12_ENVELOPE, operationElement(operation)),
    }),
    scenario('HTTP GET', {
      method: 'GET',
      path: `${operationPath}${query ? `?${query}` : ''}`,
      headers: {},
      body: '',
    }),
    scenario('HTTP POST', {
      method: 'POST',
      path: operationPath,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: query,
    }),
    scenario('JSON', {
      method: 'POST',
      path: operationPath,
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify(Object.fromEntries(operation.parameters)),
    }),
  ];
}

const TYPED_BINDINGS: ReadonlySet<BindingLabel> = new Set(['SOAP 1.1', 'JSON']);

export const SCENARIOS: readonly Scenario[] = [
  ...scenariosFor(HELLO_WORLD),
  ...scenariosFor(VOID_LOOKUP),
  ...scenariosFor(REAL_STUDENT, 'typed').filter((scenario) => TYPED_BINDINGS.has(scenario.binding)),
];
