import { XMLParser } from 'fast-xml-parser';
import { envelope11, envelope12, NS } from './soap';

/**
 * Calls an operation through one binding and returns its result as plain values, so that tests
 * can hold every binding to the same expectation. XML text stays text (numbers as "12"); JSON
 * keeps its types. An empty result is undefined.
 */
export type Binding = 'soap11' | 'soap12' | 'get' | 'post' | 'json';
export const BINDINGS: readonly Binding[] = ['soap11', 'soap12', 'get', 'post', 'json'];

const parser = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: false,
  attributeNamePrefix: '@',
});

function withoutAttributes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutAttributes);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => !key.startsWith('@'));
  if (entries.length === 0) return (value as Record<string, unknown>)['@nil'] === 'true' ? null : '';
  return Object.fromEntries(entries.map(([key, child]) => [key, withoutAttributes(child)]));
}

export interface CallOutcome {
  status: number;
  contentType: string | null;
  result: unknown;
  text: string;
}

export async function callOperation(
  baseUrl: string,
  path: string,
  operation: string,
  parameters: Record<string, string>,
  binding: Binding,
): Promise<CallOutcome> {
  const fields = Object.entries(parameters);
  const form = new URLSearchParams(fields).toString();
  const xmlParameters = fields
    .map(([name, value]) => `<${name}>${value.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${name}>`)
    .join('');
  const body = `<${operation} xmlns="${NS}">${xmlParameters}</${operation}>`;
  let response: Response;
  switch (binding) {
    case 'soap11':
      response = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}${operation}"` },
        body: envelope11(body),
      });
      break;
    case 'soap12':
      response = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { 'Content-Type': `application/soap+xml; charset=utf-8; action="${NS}${operation}"` },
        body: envelope12(body),
      });
      break;
    case 'get':
      response = await fetch(`${baseUrl}${path}/${operation}?${form}`);
      break;
    case 'post':
      response = await fetch(`${baseUrl}${path}/${operation}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      break;
    case 'json':
      response = await fetch(`${baseUrl}${path}/${operation}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: JSON.stringify(parameters),
      });
      break;
  }
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    result: resultOf(binding, operation, text),
  };
}

function resultOf(binding: Binding, operation: string, text: string): unknown {
  if (binding === 'json') return (JSON.parse(text) as { d?: unknown }).d ?? undefined;
  const document = parser.parse(text) as Record<string, unknown>;
  if (binding === 'soap11' || binding === 'soap12') {
    const envelope = document.Envelope as Record<string, Record<string, unknown>>;
    const response = envelope.Body[`${operation}Response`];
    if (response === undefined || typeof response !== 'object') return undefined;
    const result = (response as Record<string, unknown>)[`${operation}Result`];
    return result === undefined ? undefined : withoutAttributes(result);
  }
  const rootName = Object.keys(document).find((key) => key !== '?xml') as string;
  const root = document[rootName];
  const value = withoutAttributes(root);
  return value === null ? undefined : value;
}

/** XML gives one item as an object and several as an array; this makes both an array. */
export function items(listValue: unknown, itemElement: string): Array<Record<string, unknown>> {
  if (listValue === undefined || listValue === '' || listValue === null) return [];
  if (Array.isArray(listValue)) return listValue as Array<Record<string, unknown>>;
  const inner = (listValue as Record<string, unknown>)[itemElement];
  if (inner === undefined) return [];
  return (Array.isArray(inner) ? inner : [inner]) as Array<Record<string, unknown>>;
}

/** Values as text, as XML carries them, so that XML and JSON answers compare alike. */
export function asText(record: Record<string, unknown>): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => [
      key,
      value === null || value === undefined ? null : typeof value === 'object' ? JSON.stringify(value) : String(value),
    ]),
  );
}
