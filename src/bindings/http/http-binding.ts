import type { Endpoint, Operation } from '../../contract/catalog';
import type { Config } from '../../config/service-config';
import type { OperationName } from '../../contract/operation-types';
import type { Binding, Decoded } from '../../pipeline/binding';
import type { BindingName, Call } from '../../pipeline/call';
import { CallError, type CallErrorKind } from '../../pipeline/call-error';
import type { Exchange } from '../../pipeline/exchange';
import { decodeParameters, type ParameterProblem } from '../../pipeline/parameters';
import { decodeBody, parseContentType } from '../../wire/content-type';
import { FormFields, TooManyFields } from '../../wire/form-fields';
import { escapeHtml } from '../../wire/html-escape';
import { type Reply, reply } from '../../pipeline/reply';
import { requestValidationFailure } from './request-validation';
import { typedDocument } from './typed-document';

/** What is known of an HTTP GET or POST call before it is decoded: /X.asmx/Op?query. */
export interface HttpRequest {
  readonly endpoint: Endpoint;
  /** The name in the path, decoded. */
  readonly operationName: string;
  /** The endpoint's operation of that name; undefined when it has none (answered in ASMX's words). */
  readonly operation: Operation | undefined;
  readonly query: string;
}

const TEXT_PLAIN = 'text/plain; charset=utf-8';
const EMPTY = Buffer.alloc(0);
const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/** HTTP statuses of the errors that are not ASMX's plain 500. */
const STATUS: Partial<Record<CallErrorKind, number>> = {
  'too-large': 413,
  compressed: 415,
  'unsupported-media-type': 415,
  malformed: 400,
  unauthenticated: 401,
  forbidden: 403,
};

/** ASMX's answer to a method name the endpoint does not have, or has with other letter case. */
function unknownOperationMessage(endpoint: Endpoint, operationName: string): string {
  const sameButCase = endpoint.operations.find(
    (candidate) => candidate.name.toLowerCase() === operationName.toLowerCase(),
  );
  if (!sameButCase) return `${operationName} Web Service method name is not valid.`;
  const message =
    `Invalid method name '${operationName}',  method names are case sensitive.   ` +
    `The method name '${sameButCase.name}' with the same name but different casing was found.`;
  return `${escapeHtml(message)}\r\nParameter name: methodName`;
}

function problemMessage(problem: ParameterProblem): string {
  if (problem.kind === 'missing') return `Missing parameter: ${problem.parameter.name}.`;
  return `Cannot convert ${problem.text} to System.Int32.\r\nParameter name: type ---> ${problem.reason}`;
}

/**
 * The HTTP GET and POST bindings: GET /X.asmx/Op?p=v and POST /X.asmx/Op with a form body.
 * Every parameter is required here, as in ASMX, and arrives as text under its name in any letter
 * case, after ASP.NET's request validation; ints are parsed by .NET's rules and reported with
 * .NET's messages. Errors are HTTP 500 text/plain, as ASMX writes them (HTML-encoded).
 */
export class HttpBinding implements Binding<HttpRequest> {
  constructor(private readonly config: Config) {}

  nameOf(exchange: Exchange): BindingName {
    return exchange.request.method === 'POST' ? 'http-post' : 'http-get';
  }

  operationBeforeBody({ operation }: HttpRequest): OperationName | undefined {
    return operation?.name as OperationName | undefined;
  }

  async decode(exchange: Exchange, state: HttpRequest): Promise<Decoded<HttpRequest>> {
    const { endpoint, operationName, operation, query } = state;
    if (!operation) throw new CallError('unknown-operation', unknownOperationMessage(endpoint, operationName));
    const post = exchange.request.method === 'POST';
    const fields = await this.fields(exchange, query);
    const dangerous = requestValidationFailure(fields, post ? 'Request.Form' : 'Request.QueryString');
    if (dangerous) throw new CallError('client', dangerous);
    const decoded = decodeParameters(operation, (parameter) => fields.get(parameter.name), 'refuse');
    if (!decoded.ok) throw new CallError('client', problemMessage(decoded.problem));
    const call = { operation, parameters: decoded.values, caller: exchange.caller(this.nameOf(exchange)) };
    return { ok: true, call, state };
  }

  /** The request's fields: the query for GET, the form body for POST. */
  private async fields(exchange: Exchange, query: string): Promise<FormFields> {
    const { request } = exchange;
    if (request.method !== 'POST') return this.withinBudgets(query);
    const header = request.headers['content-type'] ?? '';
    const contentType = parseContentType(header);
    if (contentType.mediaType !== FORM_MEDIA_TYPE)
      throw new CallError('client', `Request format is invalid: ${header}.`);
    const text = decodeBody(await exchange.body(), contentType);
    if (text === undefined) {
      throw new CallError('malformed', 'Request format is invalid: the body is not valid in its charset.');
    }
    return this.withinBudgets(text);
  }

  /**
   * The fields of a query or form that keeps the budgets, split no further than the first field
   * past them. Too many fields is answered as ASP.NET answers more than its MaxHttpCollectionKeys.
   */
  private withinBudgets(text: string): FormFields {
    const { formCharacters, formFields } = this.config.budgets;
    if (text.length > formCharacters) {
      throw new CallError(
        'too-large',
        `Maximum request length exceeded: the fields are longer than ${formCharacters} characters.`,
      );
    }
    try {
      return new FormFields(text, formFields);
    } catch (error) {
      if (!(error instanceof TooManyFields)) throw error;
      const reason = `The request has more than ${formFields} fields.`;
      throw new CallError('client', `Operation is not valid due to the current state of the object. ${reason}`);
    }
  }

  writeResult(_state: HttpRequest, call: Call, result: unknown): Reply {
    const resultElement = call.operation.results[this.config.contract];
    // ASMX answers a void call with no body and no Content-Type.
    if (resultElement === undefined) return reply(200, undefined, EMPTY);
    return reply(
      200,
      'text/xml; charset=utf-8',
      typedDocument(resultElement.type, result, this.config.serviceNamespace),
    );
  }

  writeError(_state: HttpRequest, error: CallError): Reply {
    return reply(STATUS[error.kind] ?? 500, TEXT_PLAIN, `${error.message}\r\n`);
  }
}
