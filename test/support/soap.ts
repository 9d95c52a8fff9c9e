/** Small helpers to speak SOAP and HTTP to the service the way a client on the wire would. */

export const NS = 'http://tempuri.org/';
export const SOAP11_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_ENV = 'http://www.w3.org/2003/05/soap-envelope';

export function envelope11(body: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="${SOAP11_ENV}">\n` +
    `  <soap:Body>\n    ${body}\n  </soap:Body>\n</soap:Envelope>`
  );
}

export function envelope12(body: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<soap12:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap12="${SOAP12_ENV}">\n` +
    `  <soap12:Body>\n    ${body}\n  </soap12:Body>\n</soap12:Envelope>`
  );
}

export interface WireResponse {
  status: number;
  headers: Headers;
  text: string;
}

export async function post(url: string, headers: Record<string, string>, body: string | Buffer): Promise<WireResponse> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export async function get(url: string): Promise<WireResponse> {
  const response = await fetch(url);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

export function soap11(
  url: string,
  body: string,
  soapAction?: string,
  extraHeaders: Record<string, string> = {},
): Promise<WireResponse> {
  const headers: Record<string, string> = { 'Content-Type': 'text/xml; charset=utf-8', ...extraHeaders };
  if (soapAction !== undefined) headers.SOAPAction = soapAction;
  return post(url, headers, envelope11(body));
}

export function soap12(url: string, body: string, action?: string): Promise<WireResponse> {
  const contentType =
    action === undefined
      ? 'application/soap+xml; charset=utf-8'
      : `application/soap+xml; charset=utf-8; action="${action}"`;
  return post(url, { 'Content-Type': contentType }, envelope12(body));
}
