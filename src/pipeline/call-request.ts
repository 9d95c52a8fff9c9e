import type { BodyRead } from '../wire/read-body';

/**
 * The headers of a call that the pipeline and the bindings read, by lower-case name; the rest are
 * passed on by name to the legacy service (a migration route) or recorded for a replay.
 */
export interface CallHeaders {
  readonly [name: string]: string | string[] | undefined;
  readonly authorization?: string;
  readonly host?: string;
  readonly 'content-type'?: string;
  readonly 'content-length'?: string;
  readonly 'transfer-encoding'?: string;
  readonly soapaction?: string | string[];
}

/**
 * A request as the server hands it to the pipeline: what it needs of it as plain values, and a way
 * to read its body. The pipeline and the bindings never hold node's request, so that they can be
 * driven by a value made anywhere (a test, a replay) and cannot write to the connection.
 */
export interface CallRequest {
  readonly method: string | undefined;
  /** The path and query as the client sent them: /X.asmx or /X.asmx/Op?… */
  readonly target: string;
  /** The client's address: the connection's, or behind a trusted proxy the one it forwarded. */
  readonly address: string;
  readonly headers: CallHeaders;
  /**
   * Reads the whole body, refusing one larger than `limit` bytes or compressed; called once at
   * most (the exchange keeps what it read).
   */
  readBody(limit: number): Promise<BodyRead>;
}
