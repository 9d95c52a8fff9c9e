import type { Catalog, Operation, Parameter } from '../../src/contract/catalog';
import type { Field, PrimitiveName, TypeRef } from '../../src/contract/types';

/**
 * Writes the TypeScript types of the contract from the catalog's reading of the typed WSDL files:
 * one interface per record type (properties named as the bindings read them), one alias per
 * array type, and OperationTypes, the parameters and result of every operation by name. Handlers
 * and store queries declare their results with these, so a field the WSDL does not have, or one
 * it has that a record lacks, fails the type check.
 */

export const CONTRACT_TYPES_PATH = 'src/contract/operation-types.ts';

/** The project's line length, which the formatter keeps. */
const MAX_LINE = 120;

const PRIMITIVE_TYPES: Readonly<Record<PrimitiveName, string>> = {
  string: 'string',
  int: 'number',
  double: 'number',
  boolean: 'boolean',
  // xs:date travels as its lexical form, YYYY-MM-DD.
  date: 'string',
  base64Binary: 'Uint8Array',
};

const HEADER = `/**
 * The contract's types, generated from wsdl/typed/*.wsdl by \`npm run contract:types\`. Do not edit:
 * change the WSDL and generate again (a test fails while this file is stale).
 *
 * Element names become properties with a lower-case first letter (StudentId: studentId), as the
 * bindings read them. A field the WSDL declares nillable or minOccurs="0" may be null; a result
 * declared minOccurs="0" may be undefined, which answers with no result element.
 */
`;

function typeName(type: TypeRef): string {
  return type.kind === 'primitive' ? PRIMITIVE_TYPES[type.name] : type.name;
}

function fieldLine(field: Field): string {
  const nullable = field.nillable || field.optional ? ' | null' : '';
  return `  ${field.property}: ${typeName(field.type)}${nullable};`;
}

/** Every record and array type reachable from the operations' typed results, by name. */
function namedTypes(operations: readonly Operation[]): Map<string, TypeRef> {
  const found = new Map<string, TypeRef>();
  const visit = (type: TypeRef) => {
    if (type.kind === 'primitive' || found.has(type.name)) return;
    found.set(type.name, type);
    if (type.kind === 'array') visit(type.item);
    else for (const field of type.fields) visit(field.type);
  };
  for (const operation of operations) if (operation.results.typed) visit(operation.results.typed.type);
  return found;
}

function declaration(type: TypeRef): string {
  if (type.kind === 'array') {
    const item = type.itemNillable ? `(${typeName(type.item)} | null)` : typeName(type.item);
    return `/** tns:${type.name} */\nexport type ${type.name} = ${item}[];\n`;
  }
  if (type.kind === 'record') {
    return `/** tns:${type.name} */\nexport interface ${type.name} {\n${type.fields.map(fieldLine).join('\n')}\n}\n`;
  }
  throw new TypeError(`${type.name} is a primitive`);
}

function parameterType(parameter: Parameter): string {
  // An absent string parameter is null; an absent int is 0, as ASMX reads them.
  return parameter.type === 'int' ? 'number' : 'string | null';
}

function operationEntry(operation: Operation, endpointPath: string): string {
  const parameters = operation.parameters.map((parameter) => `${parameter.name}: ${parameterType(parameter)}`);
  const result = operation.results.typed;
  const resultType = result ? `${typeName(result.type)}${result.optional ? ' | undefined' : ''}` : 'undefined';
  const oneLine = `    parameters: { ${parameters.join('; ')} };`;
  let parameterLines: string;
  if (parameters.length === 0) parameterLines = '    parameters: Record<string, never>;';
  else if (oneLine.length <= MAX_LINE) parameterLines = oneLine;
  else parameterLines = `    parameters: {\n${parameters.map((parameter) => `      ${parameter};`).join('\n')}\n    };`;
  return [
    `  /** ${endpointPath} */`,
    `  ${operation.name}: {`,
    parameterLines,
    `    result: ${resultType};`,
    '  };',
  ].join('\n');
}

export function renderContractTypes(catalog: Catalog): string {
  const types = namedTypes(catalog.operations);
  const declarations = [...types.keys()].sort().map((name) => declaration(types.get(name) as TypeRef));
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const endpoint of catalog.endpoints) {
    for (const operation of endpoint.operations) {
      if (seen.has(operation.name)) continue;
      seen.add(operation.name);
      entries.push(operationEntry(operation, endpoint.path));
    }
  }
  const names = [...seen].map((name) => `  '${name}',`);
  return [
    HEADER,
    declarations.join('\n'),
    '/** Every operation of the contract by name: its parameters as the bindings decode them, and its result. */',
    `export interface OperationTypes {\n${entries.join('\n')}\n}\n`,
    'export type OperationName = keyof OperationTypes;\n',
    "/** Every operation's name, for the settings that name operations (the handlers hold the rest). */",
    `export const OPERATION_NAMES: readonly OperationName[] = [\n${names.join('\n')}\n];\n`,
  ].join('\n');
}
