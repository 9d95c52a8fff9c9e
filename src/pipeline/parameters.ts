import type { Operation, Parameter } from '../contract/catalog';
import { parseInt32 } from '../contract/int32';
import type { ParameterValues } from './call';

/** A parameter as a binding found it: its text, null (xsi:nil, JSON null), or undefined when it is absent. */
export type RawValue = string | null | undefined;

/** What stops the parameters from being decoded; each binding words it as ASMX does on its wire. */
export type ParameterProblem =
  | { readonly kind: 'missing'; readonly parameter: Parameter }
  | { readonly kind: 'not-an-int'; readonly parameter: Parameter; readonly text: string; readonly reason: string };

export type DecodedParameters =
  | { readonly ok: true; readonly values: ParameterValues }
  | { readonly ok: false; readonly problem: ParameterProblem };

/**
 * How a binding treats a parameter it did not find: SOAP, like ASMX's serializer, takes an absent
 * or nil string as null and an absent or nil int as 0; HTTP GET/POST and JSON require every one.
 */
export type AbsentParameters = 'default' | 'refuse';

/**
 * The operation's parameters by the catalog's names and types: strings as they came, ints parsed
 * as .NET parses them. The first problem, in parameter order, stops the decoding.
 */
export function decodeParameters(
  operation: Operation,
  rawValueOf: (parameter: Parameter) => RawValue,
  absent: AbsentParameters,
): DecodedParameters {
  const values: ParameterValues = {};
  for (const parameter of operation.parameters) {
    const raw = rawValueOf(parameter);
    if (raw === undefined && absent === 'refuse') return { ok: false, problem: { kind: 'missing', parameter } };
    if (parameter.type === 'string') {
      values[parameter.name] = raw ?? null;
      continue;
    }
    if (raw === undefined || (raw === null && absent === 'default')) {
      values[parameter.name] = 0;
      continue;
    }
    const text = raw ?? 'null';
    const parsed = parseInt32(text);
    if (!parsed.ok) return { ok: false, problem: { kind: 'not-an-int', parameter, text, reason: parsed.reason } };
    values[parameter.name] = parsed.value;
  }
  return { ok: true, values };
}
