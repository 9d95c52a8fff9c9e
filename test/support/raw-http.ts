import { connect } from 'node:net';

/**
 * Sends bytes exactly as given over a plain TCP connection and returns everything the server
 * wrote until it closed the connection (or the timeout passed), for requests fetch cannot make:
 * HTTP/1.0, missing headers, lying Content-Length, slow or oversized bodies.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.on('error', reject);
    socket.write(bytes);
  });
}

export function statusOf(rawResponse: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(rawResponse)?.[1]);
}

export function bodyOf(rawResponse: string): string {
  return rawResponse.slice(rawResponse.indexOf('\r\n\r\n') + 4);
}
