import type { RequestBudgets } from '../../config/request-budgets';
import type { Operation } from '../../contract/catalog';
import type { OperationName } from '../../contract/operation-types';
import type { Binding, Decoded } from '../../pipeline/binding';
import type { BindingName, Call } from '../../pipeline/call';
import { CallError, type CallErrorKind } from '../../pipeline/call-error';
import type { Exchange } from '../../pipeline/exchange';
import { decodeParameters, type ParameterProblem } from '../../pipeline/parameters';
import { type Reply, reply } from '../../pipeline/reply';
import { toJsonValue } from '../../wire/typed-json';
import { jsonBoundsProblem } from '../../wire/json-bounds';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** The header by which ASP.NET's script clients tell an error from a result. */
const JSON_ERROR: Readonly<Record<string, string>> = { jsonerror: 'true' };

const STATUS: Partial<Record<CallErrorKind, number>> = {
  'too-large': 413,
  compressed: 415,
  unauthenticated: 401,
  forbidden: 403,
};

/** The .NET exception each kind of error is reported as, unless the error names its own. */
const EXCEPTION_TYPE: Partial<Record<CallErrorKind, string>> = {
  'too-large': 'System.Web.HttpException',
  compressed: 'System.Web.HttpException',
  'unsupported-media-type': 'System.Web.HttpException',
  client: 'System.ArgumentException',
  malformed: 'System.ArgumentException',
  unauthenticated: 'System.UnauthorizedAccessException',
  forbidden: 'System.UnauthorizedAccessException',
};

function problemError(problem: ParameterProblem): CallError {
  if (problem.kind === 'missing') {
    const message = `Invalid web service call, missing value for parameter: '${problem.parameter.name}'.`;
    return new CallError('client', message, 'System.InvalidOperationException');
  }
  return new CallError('client', `${problem.text} is not a valid value for Int32.`, 'System.FormatException');
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

/**
 * The JSON binding of ASP.NET script services: POST /X.asmx/Op with a JSON object of parameters
 * answers {"d": result} with the typed result, in either profile. A body beyond the budgets (depth,
 * keys, array items) is refused before it is parsed. Errors are HTTP 500 (413, 415
 * for refused bodies) with a JSON object carrying Message and ExceptionType; never a stack trace.
 */
export class JsonBinding implements Binding<Operation> {
  constructor(private readonly budgets: RequestBudgets) {}

  nameOf(): BindingName {
    return 'json';
  }

  operationBeforeBody(operation: Operation): OperationName {
    return operation.name as OperationName;
  }

  async decode(exchange: Exchange, operation: Operation): Promise<Decoded<Operation>> {
    const text = (await exchange.body()).toString('utf8');
    const beyondBounds = jsonBoundsProblem(text, this.budgets);
    if (beyondBounds) throw new CallError('client', beyondBounds, 'System.ArgumentException');
    const fields = parseJsonObject(text);
    if (!fields) {
      throw new CallError(
        'client',
        'Invalid JSON: the body must be a JSON object of parameters.',
        'System.ArgumentException',
      );
    }
    const decoded = decodeParameters(
      operation,
      (parameter) => {
        if (!Object.hasOwn(fields, parameter.name)) return undefined;
        const value = fields[parameter.name];
        if (value !== null && typeof value === 'object') {
          const type = parameter.type === 'int' ? 'System.Int32' : 'System.String';
          const message = `Cannot convert the value of parameter '${parameter.name}' to ${type}.`;
          throw new CallError('client', message, 'System.InvalidOperationException');
        }
        return value === null ? null : String(value);
      },
      'refuse',
    );
    if (!decoded.ok) throw problemError(decoded.problem);
    const call = { operation, parameters: decoded.values, caller: exchange.caller(this.nameOf()) };
    return { ok: true, call, state: operation };
  }

  writeResult(operation: Operation, _call: Call, result: unknown): Reply {
    const resultElement = operation.results.typed;
    const value = resultElement ? toJsonValue(resultElement.type, result) : null;
    return reply(200, JSON_CONTENT_TYPE, JSON.stringify({ d: value }));
  }

  writeError(_operation: Operation, error: CallError): Reply {
    const exceptionType = error.exceptionType ?? EXCEPTION_TYPE[error.kind] ?? 'System.InvalidOperationException';
    const body = JSON.stringify({ Message: error.message, ExceptionType: exceptionType });
    return reply(STATUS[error.kind] ?? 500, JSON_CONTENT_TYPE, body, JSON_ERROR);
  }
}
