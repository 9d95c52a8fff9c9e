import type { Operation } from '../contract/catalog';
import { parseInt32 } from '../contract/int32';
import { lineAndColumn, type BodyElement } from './request-reader';

export type DecodedParameters =
  | { ok: true; values: Map<string, string | number | null> }
  | { ok: false; faultText: string };

/**
 * Takes the operation's parameters from the Body element by the catalog's names and types, as
 * ASMX's serializer does: qualified children only, absent strings null, absent ints 0, and an int
 * that does not parse reported with the line and column of the node after it.
 */
export function decodeSoapParameters(
  operation: Operation,
  element: BodyElement | undefined,
  namespace: string,
  requestText: string,
): DecodedParameters {
  const values = new Map<string, string | number | null>();
  const matches = element !== undefined && element.localName === operation.name && element.namespace === namespace;
  for (const parameter of operation.parameters) {
    const child = matches
      ? element.children.find(
          (candidate) => candidate.localName === parameter.name && candidate.namespace === namespace,
        )
      : undefined;
    if (parameter.type === 'string') {
      values.set(parameter.name, child && !child.nil ? child.text : null);
      continue;
    }
    if (!child || child.nil) {
      values.set(parameter.name, 0);
      continue;
    }
    const parsed = parseInt32(child.text);
    if (!parsed.ok) {
      const { line, column } = lineAndColumn(requestText, child.nextNodeOffset);
      return {
        ok: false,
        faultText: `Server was unable to read request. ---> There is an error in XML document (${line}, ${column}). ---> ${parsed.reason}`,
      };
    }
    values.set(parameter.name, parsed.value);
  }
  return { ok: true, values };
}
