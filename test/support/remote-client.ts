import { request } from 'node:http';

/**
 * HTTP from another loopback address, as a caller on another machine looks to the service: the
 * service runs with LOCAL_NETWORKS=127.0.0.1/32 and this client's socket is bound to 127.0.0.2,
 * so no traffic leaves loopback.
 */
export const REMOTE_ADDRESS = '127.0.0.2';

export interface RemoteResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

export function remoteFetch(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<RemoteResponse> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
    const headers = { ...options.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) };
    const outgoing = request(
      url,
      // A connection of its own (no agent): a kept-alive socket the service has just timed out would
      // be reset under the next call, a race of the client's making, not the service's.
      { method: options.method ?? 'GET', headers, localAddress: options.from ?? REMOTE_ADDRESS, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

export function basic(name: string, secret: string): string {
  return `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;
}
