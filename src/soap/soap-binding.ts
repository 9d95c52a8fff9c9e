import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Endpoint, Operation } from '../contract/catalog';
import { invokeOperation } from '../operations/invoke';
import type { OperationResult } from '../operations/operation';
import { operationContextFor, type ServiceContext } from '../service-context';
import { decodeBody, parseContentType } from '../wire/content-type';
import { readBody, type BodyRead } from '../wire/read-body';
import { send } from '../wire/send';
import { COMPACT, writeTypedElement } from '../wire/typed-xml';
import { Utf8Writer } from '../wire/utf8-writer';
import { EndpointDispatcher } from './dispatch';
import {
  faultEnvelope,
  responseEnvelope,
  responseEnvelopeAround,
  versionMismatchEnvelope,
  type FaultSide,
} from './envelope-writer';
import { decodeSoapParameters } from './parameter-decoder';
import { MAX_ELEMENT_DEPTH, readSoapRequest } from './request-reader';
import { soapVersionFor, type SoapVersion } from './soap-version';

/** The bytes around an operation's result, which depend only on the operation and the version. */
interface ResultFrame {
  readonly before: Buffer;
  readonly after: Buffer;
  /** The size of the last response: a good guess at the next. */
  lastBytes: number;
}

/** The largest buffer a response starts with; a larger result (a report card) grows it. */
const MAX_SIZE_HINT = 1024 * 1024;

const UNREADABLE = 'Server was unable to read request. ---> ';
const UNPROCESSABLE = 'Server was unable to process request. ---> ';

/**
 * The SOAP 1.1 and 1.2 binding of every endpoint: POST /X.asmx. It runs on the bare node:http
 * request, without Express, because a SOAP call is the hot path and gains nothing from routing.
 */
export class SoapBinding {
  private readonly dispatchers = new Map<Endpoint, EndpointDispatcher>();
  /** Responses that never change (empty results) are built once per operation and version. */
  private readonly fixedResponses = new Map<string, Buffer>();
  /** The bytes around a result, which depend only on the operation and version, likewise. */
  private readonly resultFrames = new Map<string, ResultFrame>();

  constructor(private readonly context: ServiceContext) {
    for (const endpoint of context.catalog.endpoints) {
      this.dispatchers.set(endpoint, new EndpointDispatcher(endpoint, context.config.serviceNamespace));
    }
  }

  async handle(request: IncomingMessage, response: ServerResponse, endpoint: Endpoint): Promise<void> {
    const contentType = parseContentType(request.headers['content-type']);
    const version = soapVersionFor(contentType.mediaType);
    if (!version) {
      response.setHeader('Connection', 'close');
      send(response, 415, 'text/xml; charset=utf-8', '');
      return;
    }
    const read = await readBody(request, this.context.config.maxBodyBytes);
    if (read.kind !== 'body') {
      this.refuseBody(response, version, read);
      return;
    }
    const text = read.body.length === 0 ? undefined : decodeBody(read.body, contentType);
    if (text === undefined) {
      send(response, 400, 'text/xml; charset=utf-8', '');
      return;
    }
    await this.process(request, response, endpoint, version, text, contentType.parameters.get('action'));
  }

  private async process(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    version: SoapVersion,
    text: string,
    actionParameter: string | undefined,
  ): Promise<void> {
    const read = readSoapRequest(text);
    if (read.kind === 'malformed') {
      send(response, 400, 'text/xml; charset=utf-8', '');
      return;
    }
    if (read.kind === 'too-deep') {
      this.fault(
        response,
        version,
        'sender',
        `${UNREADABLE}The request nests elements more than ${MAX_ELEMENT_DEPTH} levels deep.`,
      );
      return;
    }
    if (read.rootLocalName !== 'Envelope' || read.rootNamespace !== version.envelopeNamespace) {
      send(response, 500, version.contentType, versionMismatchEnvelope(version, read.rootNamespace));
      return;
    }
    if (!read.hasBody) {
      this.fault(
        response,
        version,
        'sender',
        `${UNREADABLE}Request format is invalid: Missing required soap:Body element.`,
      );
      return;
    }
    const dispatcher = this.dispatchers.get(endpoint) as EndpointDispatcher;
    const dispatch = dispatcher.select(
      version,
      headerValue(request.headers.soapaction),
      actionParameter,
      read.bodyElement,
    );
    if (dispatch.kind === 'unrecognised') {
      this.fault(response, version, 'sender', dispatch.reason);
      return;
    }
    const namespace = this.context.config.serviceNamespace;
    const decoded = decodeSoapParameters(dispatch.operation, read.bodyElement, namespace, text);
    if (!decoded.ok) {
      this.fault(response, version, 'sender', decoded.faultText);
      return;
    }
    const handler = this.context.handlerFor(dispatch.operation.name);
    const invocation = await invokeOperation(handler, decoded.values, operationContextFor(this.context, request));
    if (!invocation.ok) {
      const side: FaultSide = invocation.error.kind === 'client' ? 'sender' : 'receiver';
      this.fault(response, version, side, (side === 'sender' ? UNREADABLE : UNPROCESSABLE) + invocation.error.message);
      return;
    }
    send(response, 200, version.contentType, this.responseFor(dispatch.operation, version, invocation.result));
  }

  private responseFor(operation: Operation, version: SoapVersion, result: OperationResult): Buffer {
    const namespace = this.context.config.serviceNamespace;
    const resultElement = operation.results[this.context.config.contract];
    const key = `${version.name} ${operation.name}`;
    if (resultElement === undefined || result === undefined) {
      let fixed = this.fixedResponses.get(key);
      if (!fixed) {
        fixed = Buffer.from(responseEnvelope(version, `<${operation.name}Response xmlns="${namespace}" />`));
        this.fixedResponses.set(key, fixed);
      }
      return fixed;
    }
    let frame = this.resultFrames.get(key);
    if (!frame) {
      const around = responseEnvelopeAround(version);
      frame = {
        before: Buffer.from(`${around.before}<${operation.name}Response xmlns="${namespace}">`),
        after: Buffer.from(`</${operation.name}Response>${around.after}`),
        lastBytes: 0,
      };
      this.resultFrames.set(key, frame);
    }
    // Sized from the operation's last response, so that a large result is written without the
    // buffer growing and being copied on the way.
    const out = new Utf8Writer(Math.min(MAX_SIZE_HINT, 1024 + frame.lastBytes + (frame.lastBytes >> 3)));
    out.raw(frame.before);
    writeTypedElement(out, resultElement.name, resultElement.type, result, false, COMPACT, 0);
    out.raw(frame.after);
    frame.lastBytes = out.length;
    return out.toBuffer();
  }

  private fault(response: ServerResponse, version: SoapVersion, side: FaultSide, text: string): void {
    send(response, 500, version.contentType, faultEnvelope(version, side, text));
  }

  private refuseBody(response: ServerResponse, version: SoapVersion, read: Exclude<BodyRead, { kind: 'body' }>): void {
    if (read.kind === 'aborted') {
      response.destroy();
      return;
    }
    // The unread rest of the request cannot be trusted as the next request: close after replying.
    response.setHeader('Connection', 'close');
    if (read.kind === 'too-large') {
      const text = `${UNREADABLE}Maximum request length exceeded: the body is larger than ${this.context.config.maxBodyBytes} bytes.`;
      send(response, 413, version.contentType, faultEnvelope(version, 'sender', text));
      return;
    }
    const text = `${UNREADABLE}Content-Encoding ${read.encoding} is not supported; send the request uncompressed.`;
    send(response, 415, version.contentType, faultEnvelope(version, 'sender', text));
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
