import type { Operation, Parameter } from '../../contract/catalog';
import type { ParameterValues } from '../../pipeline/call';
import { CallError } from '../../pipeline/call-error';
import { decodeParameters } from '../../pipeline/parameters';
import { type BodyElement, type ChildElement, lineAndColumn } from './request-reader';

/**
 * Takes the operation's parameters from the Body element as ASMX's serializer does: qualified
 * children only, absent or nil strings null, absent or nil ints 0, and an int that does not parse
 * reported with the line and column of the node after it.
 */
export function decodeSoapParameters(
  operation: Operation,
  element: BodyElement | undefined,
  namespace: string,
  requestText: string,
): ParameterValues {
  const matches = element !== undefined && element.localName === operation.name && element.namespace === namespace;
  const childFor = (parameter: Parameter): ChildElement | undefined =>
    matches
      ? element.children.find((child) => child.localName === parameter.name && child.namespace === namespace)
      : undefined;
  const decoded = decodeParameters(
    operation,
    (parameter) => {
      const child = childFor(parameter);
      return child === undefined ? undefined : child.nil ? null : child.text;
    },
    'default',
  );
  if (decoded.ok) return decoded.values;
  const { problem } = decoded;
  const child = childFor(problem.parameter);
  if (problem.kind !== 'not-an-int' || !child) throw new Error(`unexpected parameter problem ${problem.kind}`);
  const { line, column } = lineAndColumn(requestText, child.nextNodeOffset);
  throw new CallError('client', `There is an error in XML document (${line}, ${column}). ---> ${problem.reason}`);
}
