import { type Credentials, credentialsOfAuthorization, UNREADABLE } from '../access/credentials';
import { FEDERATION_HEADER } from '../federation/forward-call';
import { baseUrlFor, type PublicAddress } from '../wire/base-url';
import type { RequestRecord } from '../telemetry/request-record';
import type { BindingName, Caller } from './call';
import { CallError, ClientGone } from './call-error';
import type { CallRequest } from './call-request';

/**
 * One request as a call passes through the pipeline; its answer is a Reply the server writes. The body is read only
 * through `body()`, within the size limit, so that every binding refuses an oversized or
 * compressed body alike; the exchange remembers whether it was read to the end.
 */
export class Exchange {
  private bodyRead = false;
  /** The body as read, kept for a call passed on to the legacy service unchanged. */
  private bodyBytes: Buffer | undefined;
  /** The caller as the headers describe it, made once: the pipeline asks before and after the body. */
  private headerCaller: Caller | undefined;

  constructor(
    readonly request: CallRequest,
    /** What the access log and the figures learn of this request; undefined for an answer no one is sent. */
    readonly record: RequestRecord | undefined,
    private readonly maxBodyBytes: number,
    private readonly address: PublicAddress,
  ) {}

  /**
   * The caller as every binding describes it: its address, the headers that matter, the binding.
   * The Authorization header's credentials count on every binding, a bearer token on JSON only;
   * a binding with credentials of its own (SOAP's WS-Security header) passes them instead. Without
   * those, the same binding gets the same caller: the pipeline can tell it recognised it already.
   */
  caller(binding: BindingName, bindingCredentials?: Credentials | typeof UNREADABLE): Caller {
    if (bindingCredentials !== undefined) return this.describeCaller(binding, bindingCredentials);
    if (this.headerCaller?.binding !== binding) this.headerCaller = this.describeCaller(binding, undefined);
    return this.headerCaller;
  }

  private describeCaller(
    binding: BindingName,
    bindingCredentials: Credentials | typeof UNREADABLE | undefined,
  ): Caller {
    const { headers } = this.request;
    const federation = headers[FEDERATION_HEADER];
    let credentials = bindingCredentials ?? credentialsOfAuthorization(headers.authorization);
    if (credentials !== UNREADABLE && credentials?.kind === 'bearer' && binding !== 'json') credentials = UNREADABLE;
    return {
      binding,
      address: this.request.address,
      requestBaseUrl: baseUrlFor(headers.host, this.address),
      federationCredential: Array.isArray(federation) ? federation[0] : federation,
      credentials,
    };
  }

  /** The whole body; throws a CallError (too-large, compressed) or ClientGone instead. */
  async body(): Promise<Buffer> {
    const read = await this.request.readBody(this.maxBodyBytes);
    switch (read.kind) {
      case 'body':
        this.bodyRead = true;
        this.bodyBytes = read.body;
        return read.body;
      case 'too-large':
        throw new CallError(
          'too-large',
          `Maximum request length exceeded: the body is larger than ${this.maxBodyBytes} bytes.`,
        );
      case 'compressed':
        throw new CallError(
          'compressed',
          `Content-Encoding ${read.encoding} is not supported; send the request uncompressed.`,
        );
      case 'aborted':
        throw new ClientGone();
    }
  }

  /** The body read by `body()`, as it came; undefined before (and for a GET, which has none). */
  get bodyAsRead(): Buffer | undefined {
    return this.bodyBytes;
  }

  /**
   * Whether the request announced a body that was not read to its end. Its unread rest cannot be
   * taken for the next request on the connection, and Node would otherwise read and discard all
   * of it, however large, so the connection is closed after the answer.
   */
  get bodyLeftUnread(): boolean {
    if (this.bodyRead) return false;
    const { headers } = this.request;
    return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
  }
}
