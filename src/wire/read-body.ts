import type { IncomingMessage } from 'node:http';

/**
 * Reads a request body into memory up to a limit. A declared Content-Length over the limit is
 * refused before a byte is read; a chunked body is cut off the moment it passes the limit, so an
 * oversized request never costs more than the limit in memory.
 */
export type BodyRead =
  | { kind: 'body'; body: Buffer }
  | { kind: 'too-large' }
  | { kind: 'compressed'; encoding: string }
  | { kind: 'aborted' };

export function refusalBeforeReading(request: IncomingMessage, limit: number): BodyRead | undefined {
  const encoding = (request.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return { kind: 'compressed', encoding };
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) return { kind: 'too-large' };
  return undefined;
}

/**
 * The body of a request node has parsed to its end already, taken from the stream's buffer at once.
 * A call's body usually comes in the same packets as its headers, and node parses it in the same
 * turn: reading it by events instead costs listeners, a promise and several turns of the queue.
 * Undefined when the request is not complete or its stream was read from already.
 */
function bodyParsedAlready(request: IncomingMessage, limit: number): BodyRead | undefined {
  if (!request.complete || request.readableFlowing !== null || request.readableDidRead) return undefined;
  if (request.readableLength > limit) return { kind: 'too-large' };
  const body = request.read() as Buffer | null;
  return { kind: 'body', body: body ?? Buffer.alloc(0) };
}

export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const refusal = refusalBeforeReading(request, limit) ?? bodyParsedAlready(request, limit);
  if (refusal) return Promise.resolve(refusal);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead) => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        // Stop reading; the connection is closed after the refusal is written.
        request.pause();
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () =>
      settle({ kind: 'body', body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) }),
    );
    request.on('error', () => settle({ kind: 'aborted' }));
    request.on('aborted', () => settle({ kind: 'aborted' }));
  });
}
