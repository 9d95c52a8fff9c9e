import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { CallRequest } from '../pipeline/call-request';
import { type BodyRead, readBody } from '../wire/read-body';

/**
 * Node's request as the pipeline reads a call: its method, target and headers as they came, the
 * client's address as the request's record has it, and its body read from the stream. One object
 * per call, with its one method on the prototype: handing it over costs no closure.
 */
export class NodeCallRequest implements CallRequest {
  readonly method: string | undefined;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;

  constructor(
    private readonly request: IncomingMessage,
    readonly address: string,
  ) {
    this.method = request.method;
    this.target = request.url ?? '/';
    this.headers = request.headers;
  }

  readBody(limit: number): Promise<BodyRead> {
    return readBody(this.request, limit);
  }
}
