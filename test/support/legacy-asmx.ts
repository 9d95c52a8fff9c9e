import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A legacy ASMX service for the migration tests, on loopback: it answers each operation on each
 * binding with a fixed document written the way ASMX writes it (its own prefixes and layout), and
 * can be told to differ in a field, to add noise (a counter that changes with every answer), to
 * be slow, to fail with a fault, or to close the connection. It keeps every request it received,
 * so that a test can tell how often the legacy side was asked, and with what.
 */

export type StandInBinding = 'soap11' | 'soap12' | 'http-get' | 'http-post' | 'json';

export interface LegacyDocument {
  readonly status?: number;
  readonly contentType: string;
  /** `{{noise}}` is replaced by the noise counter when noise is on, by nothing otherwise. */
  readonly body: string;
}

export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly operation: string;
  readonly binding: StandInBinding;
}

export interface StandInBehaviour {
  /** Replaces this text of every answer with that one. */
  differ?: { readonly from: string; readonly to: string };
  /** A counter, different in every answer, where a document has `{{noise}}`. */
  noise?: boolean;
  delayMs?: number;
  fail?: 'fault' | 'close';
  /** Answers nothing until `release()`: a legacy service that is busy for as long as a test needs. */
  hold?: boolean;
}

export interface LegacyStandIn {
  readonly url: string;
  readonly documents: Map<string, LegacyDocument>;
  readonly behaviour: StandInBehaviour;
  readonly requests: ReceivedRequest[];
  /** The requests for one operation. */
  requestsFor(operation: string): ReceivedRequest[];
  /** Answers the requests held so far (see `hold`), and stops holding. */
  release(): void;
  close(): Promise<void>;
}

const XML = 'text/xml; charset=utf-8';
const SOAP12 = 'application/soap+xml; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/** A SOAP answer as ASMX writes it, with another prefix than this service's and a line break. */
function soapDocument(envelopeNamespace: string, operation: string, result: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\r\n<s:Envelope xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:s="${envelopeNamespace}">\r\n  <s:Body>\r\n    ` +
    `<${operation}Response xmlns="http://tempuri.org/"><${operation}Result>${result}</${operation}Result>` +
    `</${operation}Response>\r\n  </s:Body>\r\n</s:Envelope>`
  );
}

/** The documents of an operation whose result is a string, on every binding. */
export function stringDocuments(operation: string, result: string): Array<[string, LegacyDocument]> {
  const plain = `<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="http://tempuri.org/">${result}</string>`;
  return [
    [
      `${operation} soap11`,
      { contentType: XML, body: soapDocument('http://schemas.xmlsoap.org/soap/envelope/', operation, result) },
    ],
    [
      `${operation} soap12`,
      { contentType: SOAP12, body: soapDocument('http://www.w3.org/2003/05/soap-envelope', operation, result) },
    ],
    [`${operation} http-get`, { contentType: XML, body: plain }],
    [`${operation} http-post`, { contentType: XML, body: plain }],
    [`${operation} json`, { contentType: JSON_TYPE, body: JSON.stringify({ d: result }) }],
  ];
}

/** HelloWorld, and AuthCode answering a reference of its own, as the legacy service answers them. */
export const DEFAULT_DOCUMENTS: ReadonlyArray<[string, LegacyDocument]> = [
  ...stringDocuments('HelloWorld', 'Hello World{{noise}}'),
  ...stringDocuments('AuthCode', 'legacy-reference'),
];

function recognise(request: IncomingMessage, body: string): { operation: string; binding: StandInBinding } {
  const url = new URL(request.url ?? '/', 'http://legacy');
  const [, , method] = url.pathname.split('/');
  const contentType = request.headers['content-type'] ?? '';
  if (method) {
    if (request.method === 'GET') return { operation: method, binding: 'http-get' };
    return { operation: method, binding: contentType.includes('json') ? 'json' : 'http-post' };
  }
  const element = /<(?:[\w-]+:)?Body[^>]*>\s*<(?:[\w-]+:)?([\w]+)/.exec(body)?.[1] ?? '';
  return { operation: element, binding: contentType.includes('soap+xml') ? 'soap12' : 'soap11' };
}

const FAULT =
  '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
  '<soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request.' +
  '</faultstring></soap:Fault></soap:Body></soap:Envelope>';

export async function startLegacyStandIn(): Promise<LegacyStandIn> {
  const documents = new Map<string, LegacyDocument>(DEFAULT_DOCUMENTS);
  const behaviour: StandInBehaviour = {};
  const requests: ReceivedRequest[] = [];
  let counter = 0;
  const held: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { operation, binding } = recognise(request, body);
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
        operation,
        binding,
      });
      const answer = () => {
        if (behaviour.fail === 'close') {
          request.socket.destroy();
          return;
        }
        const document = documents.get(`${operation} ${binding}`);
        if (behaviour.fail === 'fault' || !document) {
          response.writeHead(500, { 'Content-Type': XML }).end(FAULT);
          return;
        }
        counter++;
        let text = document.body.replaceAll('{{noise}}', behaviour.noise ? ` #${counter}` : '');
        if (behaviour.differ) text = text.replaceAll(behaviour.differ.from, behaviour.differ.to);
        const headers: Record<string, string> = { 'Content-Type': document.contentType };
        if (binding === 'json' && (document.status ?? 200) >= 400) headers.jsonerror = 'true';
        response.writeHead(document.status ?? 200, headers).end(text);
      };
      if (behaviour.hold) held.push(answer);
      else if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    documents,
    behaviour,
    requests,
    requestsFor: (operation) => requests.filter((request) => request.operation === operation),
    release: () => {
      behaviour.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
