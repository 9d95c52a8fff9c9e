import type { StandInBinding } from './legacy-asmx';
import { envelope11, envelope12, NS } from './soap';

/** Calls an operation without parameters on any binding, as the migration tests do, and gives the answer as text. */
export const PATH = '/GetStudentsNote.asmx';

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

export async function call(
  url: string,
  binding: StandInBinding,
  operation = 'HelloWorld',
  path = PATH,
): Promise<Answer> {
  const element = `<${operation} xmlns="${NS}" />`;
  const init: Record<StandInBinding, [string, RequestInit]> = {
    soap11: [
      path,
      {
        method: 'POST',
        headers: { 'Content-Type': 'text/xml; charset=utf-8', SOAPAction: `"${NS}${operation}"` },
        body: envelope11(element),
      },
    ],
    soap12: [
      path,
      { method: 'POST', headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' }, body: envelope12(element) },
    ],
    'http-get': [`${path}/${operation}`, { method: 'GET' }],
    'http-post': [
      `${path}/${operation}`,
      { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '' },
    ],
    json: [`${path}/${operation}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }],
  };
  const [target, request] = init[binding];
  const response = await fetch(`${url}${target}`, request);
  return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
}

export const BINDINGS: StandInBinding[] = ['soap11', 'soap12', 'http-get', 'http-post', 'json'];
