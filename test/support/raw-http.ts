import { connect } from 'node:net';

/**
 * Sends bytes exactly as given over a plain TCP connection and returns everything the server
 * wrote until it closed the connection (or the timeout passed), for requests fetch cannot make:
 * HTTP/1.0, missing headers, lying Content-Length, slow or oversized bodies.
 */
export function rawRequest(url: string, bytes: string | Buffer, timeoutMs = 5000, from?: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, localAddress: from });
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

/**
 * Sends `head` at once, then `drip` one byte every `intervalMs`, as a slow (or slowloris) client
 * does, and returns what the server wrote until it closed the connection (or the timeout passed).
 */
export function slowRequest(
  url: string,
  head: string,
  drip: string,
  intervalMs: number,
  timeoutMs = 5000,
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let sent = 0;
    const dripper = setInterval(() => {
      if (sent < drip.length && socket.writable) socket.write(drip[sent++]);
    }, intervalMs);
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearInterval(dripper);
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    // The server may cut the connection while a byte is on its way.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.write(head);
  });
}
