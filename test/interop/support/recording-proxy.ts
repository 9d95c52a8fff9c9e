import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What reached the service in one POST: enough to tell which SOAP version really went over the wire. */
export interface RecordedRequest {
  endpoint: string;
  /** The Content-Type without its parameters, lower-cased. */
  mediaType: string;
  envelopeNamespace: string | undefined;
  /** Local name of the first element in the SOAP Body. */
  operation: string | undefined;
  /** The SOAPAction header, unquoted: where SOAP 1.1 names the operation. */
  soapAction: string | undefined;
  /** The Content-Type's action parameter, unquoted: where SOAP 1.2 names the operation. */
  actionParameter: string | undefined;
  /** Whether the request carried an Authorization header. */
  authorized: boolean;
  /** The status the service answered with. */
  status?: number;
}

/**
 * How the proxy reaches the service: as it is, from another loopback address, or as a trusted
 * proxy forwarding a client.
 */
export interface ProxyOptions {
  /** The local address of the proxy's connections to the service (127.0.0.2: a caller on another machine). */
  readonly from?: string;
  /** An X-Forwarded-For address added to every request, as a reverse proxy in front of the service does. */
  readonly forwardedFor?: string;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

const unquoted = (value: string | undefined) => value?.trim().replace(/^"(.*)"$/, '$1');

function describeRequest(endpoint: string, headers: IncomingHttpHeaders, body: string): RecordedRequest {
  // Regular expressions are enough here: the bodies come from SOAP stacks, and a body they do not
  // match leaves the fields undefined, which fails the assertion that reads them.
  const envelope = /<(?:([\w.-]+):)?Envelope\b([^>]*)>/.exec(body);
  const declaration = envelope ? (envelope[1] ? `xmlns:${envelope[1]}` : 'xmlns') : undefined;
  const namespace = declaration && new RegExp(`\\s${declaration}\\s*=\\s*["']([^"']*)["']`).exec(envelope?.[2] ?? '');
  return {
    endpoint,
    mediaType: (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
    envelopeNamespace: namespace ? namespace[1] : undefined,
    operation: /<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/.exec(body)?.[1],
    soapAction: unquoted(headers.soapaction as string | undefined),
    actionParameter: unquoted(/;\s*action\s*=\s*("[^"]*"|[^;\s]*)/i.exec(headers['content-type'] ?? '')?.[1]),
    authorized: headers.authorization !== undefined,
  };
}

/**
 * A pass-through HTTP proxy in front of the service that records every POST, so a test sees what a
 * client really sent rather than what it claims. Headers go through untouched, Host included, so
 * the service writes the proxy's address into the WSDL and the clients keep calling through it.
 */
export async function startRecordingProxy(serviceUrl: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const service = new URL(serviceUrl);
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const path = incoming.url ?? '/';
      const recorded =
        incoming.method === 'POST'
          ? describeRequest(new URL(path, serviceUrl).pathname, incoming.headers, body.toString('utf8'))
          : undefined;
      if (recorded) requests.push(recorded);
      const headers = options.forwardedFor
        ? { ...incoming.headers, 'x-forwarded-for': options.forwardedFor }
        : incoming.headers;
      const target = { hostname: service.hostname, port: service.port, method: incoming.method, path, headers };
      const forwarded = request(options.from ? { ...target, localAddress: options.from } : target, (answer) => {
        if (recorded) recorded.status = answer.statusCode;
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', (error) => outgoing.destroy(error));
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
