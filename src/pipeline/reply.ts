/**
 * What a binding answers a call with, before any of it is written: the status, the headers and the
 * body. The pipeline hands it to the server, which writes it (with the headers that are the
 * connection's business: X-Request-Id, Connection: close, the 401's challenge), or to the
 * comparison of answers, which writes it nowhere. The pipeline and the bindings so never touch a
 * socket; one shape for every reply keeps the call's path monomorphic.
 */
export interface Reply {
  readonly status: number;
  /** Undefined for a reply without a Content-Type (a void call over HTTP, a passed-on answer). */
  readonly contentType: string | undefined;
  readonly body: string | Buffer;
  /** Headers beyond the Content-Type, names as they are sent (JSON's jsonerror, a passed-on answer's). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The request's body was not read to its end: the connection cannot carry another request. */
  closeConnection: boolean;
  /** The caller was refused for want of credentials it could send: the server adds the challenge. */
  challenge: boolean;
}

export function reply(
  status: number,
  contentType: string | undefined,
  body: string | Buffer,
  headers?: Readonly<Record<string, string>>,
): Reply {
  return { status, contentType, body, headers, closeConnection: false, challenge: false };
}

/** The pipeline's answer when there is none to give: the client went, or was answered already. */
export const HANG_UP = Symbol('hang up');

/** What serving a call comes to: a reply to write, or a connection to drop. */
export type Served = Reply | typeof HANG_UP;
