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

export function readBody(request: IncomingMessage, limit: number): Promise<BodyRead> {
  const refusal = refusalBeforeReading(request, limit);
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
