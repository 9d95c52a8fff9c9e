import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Stands in for a ServerResponse where a binding writes an answer that no caller receives: this
 * service's own answer to a call the legacy service answered (shadow), kept to be compared. It
 * takes what a binding's writeResult and writeError do to a response (setHeader, writeHead, end)
 * and nothing else, so the answer compared is byte for byte the one the binding would send.
 */
export class CapturedResponse {
  statusCode = 200;
  headersSent = false;
  private readonly headers: Record<string, string> = {};
  body: Buffer = Buffer.alloc(0);

  setHeader(name: string, value: string | number | readonly string[]): this {
    this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    return this;
  }

  writeHead(status: number, headers?: OutgoingHttpHeaders): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (value !== undefined) this.setHeader(name, value as string | number | readonly string[]);
    }
    this.headersSent = true;
    return this;
  }

  end(body?: string | Buffer): this {
    if (body !== undefined) this.body = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    return this;
  }

  destroy(): this {
    return this;
  }

  /** The response as a binding expects it; only the members above are ever used. */
  asServerResponse(): ServerResponse {
    return this as unknown as ServerResponse;
  }

  answerHeaders(): Readonly<Record<string, string>> {
    return this.headers;
  }
}
