import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake gateway received it. */
export interface ReceivedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/**
 * How the fake gateway answers one request: a status with headers and body (once `after` has
 * settled, when given: the test decides when the answer goes), or never ('hang').
 */
export type FakeAnswer =
  | {
      readonly status: number;
      readonly headers?: Record<string, string>;
      readonly body?: string;
      readonly after?: Promise<unknown>;
    }
  | 'hang';

export interface FakeGateway {
  readonly url: string;
  readonly received: ReceivedRequest[];
  /** Answers for the next requests, in order; after them, the default answer. */
  answerNext(...answers: FakeAnswer[]): void;
  setDefault(answer: FakeAnswer): void;
  /** Resolves once at least `count` requests have arrived; rejects after the time limit. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for an SMS or push gateway: it records what arrives
 * and answers as the test scripts it (200, 429 with Retry-After, 503, hanging past the caller's
 * time limit, FCM's unregistered-token answer, ...).
 */
export async function startFakeGateway(): Promise<FakeGateway> {
  const received: ReceivedRequest[] = [];
  const queue: FakeAnswer[] = [];
  let fallback: FakeAnswer = {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: '{"name":"projects/demo/messages/1"}',
  };
  const waiters = new Set<() => void>();

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const waiter of waiters) waiter();
      const answer = queue.shift() ?? fallback;
      if (answer === 'hang') return;
      void Promise.resolve(answer.after).finally(() => {
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body ?? '');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answerNext: (...answers) => queue.push(...answers),
    setDefault: (answer) => {
      fallback = answer;
    },
    waitForRequests: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`the fake gateway received ${received.length} requests, not ${count}, within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
