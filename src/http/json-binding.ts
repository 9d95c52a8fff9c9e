import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Operation } from '../contract/catalog';
import { parseInt32 } from '../contract/int32';
import { invokeOperation } from '../operations/invoke';
import { operationContextFor, type ServiceContext } from '../service-context';
import { readBody } from '../wire/read-body';
import { send } from '../wire/send';
import { toJsonValue } from '../wire/typed-json';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * The JSON binding of ASP.NET script services: POST /X.asmx/Op with a JSON object of parameters
 * answers {"d": result} with the typed result, in either profile. Errors are HTTP 500 with a JSON
 * object carrying Message and ExceptionType; never a stack trace.
 */
export function sendJsonError(response: ServerResponse, message: string, exceptionType: string, status = 500): void {
  response.setHeader('jsonerror', 'true');
  send(response, status, JSON_CONTENT_TYPE, JSON.stringify({ Message: message, ExceptionType: exceptionType }));
}

type Decoded =
  | { ok: true; values: Map<string, string | number | null> }
  | { ok: false; message: string; exceptionType: string };

/** Parameters from the JSON object by the catalog's names: strings as text, ints as .NET reads them. */
function decodeParameters(operation: Operation, fields: Record<string, unknown>): Decoded {
  const values = new Map<string, string | number | null>();
  for (const parameter of operation.parameters) {
    if (!Object.hasOwn(fields, parameter.name)) {
      return {
        ok: false,
        message: `Invalid web service call, missing value for parameter: '${parameter.name}'.`,
        exceptionType: 'System.InvalidOperationException',
      };
    }
    const value = fields[parameter.name];
    if (value !== null && typeof value === 'object') {
      return {
        ok: false,
        message: `Cannot convert the value of parameter '${parameter.name}' to ${parameter.type === 'int' ? 'System.Int32' : 'System.String'}.`,
        exceptionType: 'System.InvalidOperationException',
      };
    }
    if (parameter.type === 'string') {
      values.set(parameter.name, value === null ? null : String(value));
      continue;
    }
    const parsed = value === null ? undefined : parseInt32(String(value));
    if (!parsed?.ok)
      return {
        ok: false,
        message: `${String(value)} is not a valid value for Int32.`,
        exceptionType: 'System.FormatException',
      };
    values.set(parameter.name, parsed.value);
  }
  return { ok: true, values };
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export async function handleJsonCall(
  context: ServiceContext,
  request: IncomingMessage,
  response: ServerResponse,
  operation: Operation,
): Promise<void> {
  const read = await readBody(request, context.config.maxBodyBytes);
  if (read.kind === 'aborted') {
    response.destroy();
    return;
  }
  if (read.kind !== 'body') {
    response.setHeader('Connection', 'close');
    if (read.kind === 'too-large')
      sendJsonError(
        response,
        `Maximum request length exceeded: the body is larger than ${context.config.maxBodyBytes} bytes.`,
        'System.Web.HttpException',
        413,
      );
    else
      sendJsonError(
        response,
        `Content-Encoding ${read.encoding} is not supported; send the request uncompressed.`,
        'System.Web.HttpException',
        415,
      );
    return;
  }
  const fields = parseJsonObject(read.body.toString('utf8'));
  if (!fields) {
    sendJsonError(response, 'Invalid JSON: the body must be a JSON object of parameters.', 'System.ArgumentException');
    return;
  }
  const decoded = decodeParameters(operation, fields);
  if (!decoded.ok) {
    sendJsonError(response, decoded.message, decoded.exceptionType);
    return;
  }
  const invocation = await invokeOperation(
    context.handlerFor(operation.name),
    decoded.values,
    operationContextFor(context, request),
  );
  if (!invocation.ok) {
    sendJsonError(
      response,
      invocation.error.message,
      invocation.error.kind === 'client' ? 'System.ArgumentException' : 'System.InvalidOperationException',
    );
    return;
  }
  const resultElement = operation.results.typed;
  const value = resultElement ? toJsonValue(resultElement.type, invocation.result) : null;
  send(response, 200, JSON_CONTENT_TYPE, JSON.stringify({ d: value }));
}
