import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Endpoint, Operation } from '../contract/catalog';
import { parseInt32 } from '../contract/int32';
import { invokeOperation } from '../operations/invoke';
import { operationContextFor, type ServiceContext } from '../service-context';
import { decodeBody, parseContentType } from '../wire/content-type';
import { readBody } from '../wire/read-body';
import { send } from '../wire/send';
import { handleJsonCall } from './json-binding';
import { typedDocument } from './typed-document';

const TEXT_PLAIN = 'text/plain; charset=utf-8';
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';
const JSON_MEDIA_TYPE = 'application/json';

/** The ASMX text/plain error: the message and a CRLF, HTTP 500. */
function sendError(response: ServerResponse, message: string, status = 500): void {
  send(response, status, TEXT_PLAIN, `${message}\r\n`);
}

function escapeQuotesAsDotNet(text: string): string {
  return text.replace(/'/g, '&#39;');
}

/**
 * The HTTP GET and POST bindings: GET /X.asmx/Op?p=v and POST /X.asmx/Op with a form body.
 * Every parameter is required here, as in ASMX, and arrives as text; ints are parsed by .NET's
 * rules and reported with .NET's messages.
 */
export class HttpBinding {
  constructor(private readonly context: ServiceContext) {}

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    endpoint: Endpoint,
    operationName: string,
    query: string,
  ): Promise<void> {
    const operation = endpoint.operations.find((candidate) => candidate.name === operationName);
    if (!operation) {
      this.refuseOperationName(response, endpoint, operationName);
      return;
    }
    if (request.method === 'POST' && parseContentType(request.headers['content-type']).mediaType === JSON_MEDIA_TYPE) {
      await handleJsonCall(this.context, request, response, operation);
      return;
    }
    const fields = await this.readFields(request, response, query);
    if (!fields) return;
    const values = new Map<string, string | number | null>();
    for (const parameter of operation.parameters) {
      const all = fields.getAll(parameter.name);
      if (all.length === 0) {
        sendError(response, `Missing parameter: ${parameter.name}.`);
        return;
      }
      // ASMX reads fields through a NameValueCollection, which joins repeated fields with commas.
      const text = all.join(',');
      if (parameter.type === 'string') {
        values.set(parameter.name, text);
        continue;
      }
      const parsed = parseInt32(text);
      if (!parsed.ok) {
        sendError(response, `Cannot convert ${text} to System.Int32.\r\nParameter name: type ---> ${parsed.reason}`);
        return;
      }
      values.set(parameter.name, parsed.value);
    }
    await this.invoke(request, response, operation, values);
  }

  private refuseOperationName(response: ServerResponse, endpoint: Endpoint, operationName: string): void {
    const sameButCase = endpoint.operations.find(
      (candidate) => candidate.name.toLowerCase() === operationName.toLowerCase(),
    );
    if (!sameButCase) {
      sendError(response, `${operationName} Web Service method name is not valid.`);
      return;
    }
    sendError(
      response,
      `${escapeQuotesAsDotNet(
        `Invalid method name '${operationName}',  method names are case sensitive.   The method name '${sameButCase.name}' with the same name but different casing was found.`,
      )}\r\nParameter name: methodName`,
    );
  }

  /** The request's fields: the query for GET, the form body for POST; undefined once refused. */
  private async readFields(
    request: IncomingMessage,
    response: ServerResponse,
    query: string,
  ): Promise<URLSearchParams | undefined> {
    if (request.method !== 'POST') return new URLSearchParams(query);
    const header = request.headers['content-type'] ?? '';
    const contentType = parseContentType(header);
    if (contentType.mediaType !== FORM_MEDIA_TYPE) {
      response.setHeader('Connection', 'close');
      sendError(response, `Request format is invalid: ${header}.`);
      return undefined;
    }
    const read = await readBody(request, this.context.config.maxBodyBytes);
    if (read.kind === 'aborted') {
      response.destroy();
      return undefined;
    }
    if (read.kind !== 'body') {
      response.setHeader('Connection', 'close');
      if (read.kind === 'too-large')
        sendError(
          response,
          `Maximum request length exceeded: the body is larger than ${this.context.config.maxBodyBytes} bytes.`,
          413,
        );
      else
        sendError(response, `Content-Encoding ${read.encoding} is not supported; send the request uncompressed.`, 415);
      return undefined;
    }
    const text = decodeBody(read.body, contentType);
    if (text === undefined) {
      sendError(response, 'Request format is invalid: the body is not valid in its charset.', 400);
      return undefined;
    }
    return new URLSearchParams(text);
  }

  private async invoke(
    request: IncomingMessage,
    response: ServerResponse,
    operation: Operation,
    values: Map<string, string | number | null>,
  ): Promise<void> {
    const handler = this.context.handlerFor(operation.name);
    const invocation = await invokeOperation(handler, values, operationContextFor(this.context, request));
    if (!invocation.ok) {
      sendError(response, invocation.error.message);
      return;
    }
    const resultElement = operation.results[this.context.config.contract];
    if (resultElement === undefined) {
      response.writeHead(200, { 'Content-Length': 0 });
      response.end();
      return;
    }
    send(
      response,
      200,
      'text/xml; charset=utf-8',
      typedDocument(resultElement.type, invocation.result, this.context.config.serviceNamespace),
    );
  }
}
