import { type Credentials, UNREADABLE as UNREADABLE_CREDENTIALS } from '../../access/credentials';
import type { Catalog, Endpoint } from '../../contract/catalog';
import type { Config } from '../../config/service-config';
import type { Binding, Decoded } from '../../pipeline/binding';
import type { BindingName, Call } from '../../pipeline/call';
import { CallError } from '../../pipeline/call-error';
import type { Exchange } from '../../pipeline/exchange';
import { type ContentType, decodeBody, parseContentType } from '../../wire/content-type';
import { type Reply, reply } from '../../pipeline/reply';
import { EndpointDispatcher } from './dispatch';
import { type FaultSide, faultEnvelope, mustUnderstandEnvelope, versionMismatchEnvelope } from './envelope-writer';
import { firstNotUnderstood, type HeaderBlock, type SoapHeader } from './header-reader';
import { decodeSoapParameters } from './parameter-decoder';
import { type ReadResult, readSoapRequest } from './request-reader';
import { SoapResultWriter } from './result-writer';
import { SOAP11, SOAP12, type SoapVersion, soapVersionFor, soapVersionOfEnvelope } from './soap-version';
import { refusalReason } from '../../wire/xml-budget';

/** What is known of a SOAP request: before its body is read, and then (as decode returns it) what reading it showed. */
export interface SoapRequest {
  readonly endpoint: Endpoint;
  readonly contentType: ContentType;
  /**
   * The version the request is answered in: the one its Content-Type announces (undefined when
   * it is neither SOAP media type), until the envelope's namespace says otherwise.
   */
  readonly version: SoapVersion | undefined;
  /** The header block a MustUnderstand fault names. */
  readonly notUnderstood?: HeaderBlock;
}

/** An envelope read whole, within the budgets. */
type ReadEnvelope = Extract<ReadResult, { kind: 'read' }>;

const UNREADABLE = 'Server was unable to read request. ---> ';
const UNPROCESSABLE = 'Server was unable to process request. ---> ';
const TEXT_XML = 'text/xml; charset=utf-8';
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** The caller's WS-Security UsernameToken, if the header has one; a token without a username cannot be read. */
function usernameTokenCredentials(
  header: SoapHeader | undefined,
): Credentials | typeof UNREADABLE_CREDENTIALS | undefined {
  const token = header?.usernameToken;
  if (!token) return undefined;
  if (!token.username || token.password === undefined) return UNREADABLE_CREDENTIALS;
  return {
    kind: 'username-token',
    name: token.username.trim(),
    password: token.password,
    digest: token.digest,
    // As sent: a nonce has one spelling, and one with spaces around it is refused as a re-spelt replay.
    nonce: token.nonce,
    created: token.created?.trim(),
  };
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The SOAP 1.1 and 1.2 binding of every endpoint: POST /X.asmx. It reads the request as the
 * server hands it to the pipeline, without Express, because a SOAP call is the hot path and gains
 * nothing from it; what it learns from the envelope it returns, and keeps nothing of a request.
 */
export class SoapBinding implements Binding<SoapRequest> {
  private readonly dispatchers = new Map<Endpoint, EndpointDispatcher>();
  private readonly results: SoapResultWriter;

  constructor(
    catalog: Catalog,
    private readonly config: Config,
  ) {
    for (const endpoint of catalog.endpoints) {
      this.dispatchers.set(endpoint, new EndpointDispatcher(endpoint, config.serviceNamespace));
    }
    this.results = new SoapResultWriter(config.serviceNamespace, config.contract);
  }

  /** What is known of a SOAP request to `endpoint` before its body is read: the version its Content-Type announces. */
  requestTo(endpoint: Endpoint, contentTypeHeader: string | undefined): SoapRequest {
    const contentType = parseContentType(contentTypeHeader);
    // ASMX takes a form POSTed to the endpoint itself for a SOAP 1.2 request (and fails to read it).
    const version = contentType.mediaType === FORM_MEDIA_TYPE ? SOAP12 : soapVersionFor(contentType.mediaType);
    return { endpoint, contentType, version };
  }

  nameOf(_exchange: Exchange, { version }: SoapRequest): BindingName | undefined {
    if (!version) return undefined;
    return version === SOAP11 ? 'soap11' : 'soap12';
  }

  /**
   * The call in the envelope. A failure before the envelope's version is known is thrown, and
   * answered in the version the Content-Type announced; once it is known, decode returns the
   * request as answered in that version, with any failure after it.
   */
  async decode(exchange: Exchange, announced: SoapRequest): Promise<Decoded<SoapRequest>> {
    const { contentType } = announced;
    if (!announced.version) throw new CallError('unsupported-media-type', 'The Content-Type is not a SOAP media type.');
    if (contentType.mediaType === FORM_MEDIA_TYPE) {
      throw new CallError('unprocessable', 'Data at the root level is invalid. Line 1, position 1.');
    }
    const body = await exchange.body();
    const text = body.length === 0 ? undefined : decodeBody(body, contentType);
    if (text === undefined) throw new CallError('malformed', 'The body is empty or not valid in its charset.');
    const read = readSoapRequest(text, this.config.budgets);
    if (read.kind === 'malformed') throw new CallError('malformed', 'The body is not well-formed XML.');
    if (read.kind !== 'read') throw new CallError('client', refusalReason(read.kind, this.config.budgets));
    const version = this.versionOf(announced.version, read.rootLocalName, read.rootNamespace);
    // The same state when the envelope is the version announced, as it nearly always is: no copy.
    const state = version === announced.version ? announced : { ...announced, version };
    try {
      return this.callIn(exchange, state, read, text);
    } catch (error) {
      return { ok: false, error, state };
    }
  }

  /** The call in an envelope read whole, whose version is `state`'s. */
  private callIn(exchange: Exchange, state: SoapRequest, read: ReadEnvelope, text: string): Decoded<SoapRequest> {
    const version = state.version as SoapVersion;
    if (!read.hasBody) {
      throw new CallError('client', 'Request format is invalid: Missing required soap:Body element.');
    }
    const dispatcher = this.dispatchers.get(state.endpoint) as EndpointDispatcher;
    const soapAction = headerValue(exchange.request.headers.soapaction);
    const action = state.contentType.parameters.get('action');
    const dispatch = dispatcher.select(version, soapAction, action, read.bodyElement);
    if (dispatch.kind === 'unrecognised') throw new CallError('unknown-operation', dispatch.reason);
    const { operation } = dispatch;
    const parameters = decodeSoapParameters(operation, read.bodyElement, this.config.serviceNamespace, text);
    const notUnderstood = firstNotUnderstood(read.header);
    if (notUnderstood) {
      const error = new CallError('not-understood', notUnderstood.localName);
      return { ok: false, error, state: { ...state, notUnderstood } };
    }
    const binding = this.nameOf(exchange, state) as BindingName;
    const caller = exchange.caller(binding, usernameTokenCredentials(read.header));
    return { ok: true, call: { operation, parameters, caller }, state };
  }

  /**
   * The version the request is answered in, as ASMX decides it from the envelope's namespace: a
   * SOAP 1.2 envelope is answered as 1.2 whatever the media type; a 1.1 envelope sent as
   * application/soap+xml is refused like an unknown media type; any other root element is a
   * VersionMismatch fault in the announced version.
   */
  private versionOf(announced: SoapVersion, rootLocalName: string, rootNamespace: string): SoapVersion {
    const found = rootLocalName === 'Envelope' ? soapVersionOfEnvelope(rootNamespace) : undefined;
    if (found === SOAP11 && announced === SOAP12) {
      throw new CallError('unsupported-media-type', 'A SOAP 1.1 envelope sent as application/soap+xml.');
    }
    if (found === undefined) throw new CallError('version-mismatch', rootNamespace);
    return found;
  }

  writeResult({ version }: SoapRequest, call: Call, result: unknown): Reply {
    const soap = version as SoapVersion;
    return reply(200, soap.contentType, this.results.responseFor(call.operation, soap, result));
  }

  /** Every error as ASMX answers it on SOAP: an empty 415 or 400, or a fault naming the side or header at fault. */
  writeError({ version, notUnderstood }: SoapRequest, error: CallError): Reply {
    if (!version || error.kind === 'unsupported-media-type') return reply(415, TEXT_XML, '');
    const fault = (status: number, side: FaultSide, text: string) =>
      reply(status, version.contentType, faultEnvelope(version, side, text));
    switch (error.kind) {
      case 'malformed':
        return reply(400, version.contentType, '');
      case 'version-mismatch':
        return reply(500, version.contentType, versionMismatchEnvelope(version, error.message));
      case 'unknown-operation':
      case 'forbidden':
        return fault(500, 'sender', error.message);
      case 'unauthenticated':
        // The challenge header is the server's; the 401 makes .NET's clients send their credentials.
        return fault(401, 'sender', error.message);
      case 'too-large':
        return fault(413, 'sender', UNREADABLE + error.message);
      case 'compressed':
        return fault(415, 'sender', UNREADABLE + error.message);
      case 'client':
        return fault(500, 'sender', UNREADABLE + error.message);
      case 'not-understood':
        return reply(500, version.contentType, mustUnderstandEnvelope(version, notUnderstood as HeaderBlock));
      case 'rule':
      case 'unprocessable':
      case 'internal':
        return fault(500, 'receiver', UNPROCESSABLE + error.message);
    }
  }
}
