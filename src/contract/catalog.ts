import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WSDL } from 'soap';
import type { Profile } from './profile';
import { propertyNameOf, type PrimitiveName, type TypeRef } from './types';

/**
 * The operation catalog: endpoints, operations, parameters and result shapes, read from the
 * hand-authored WSDL files through node-soap's WSDL model. Nothing else in the service lists
 * operations or parameters; every binding, page and test form is driven from here.
 */

/** The namespace and address the WSDL files are written with; both are replaced when served. */
export const AUTHORING_NAMESPACE = 'http://tempuri.org/';
export const AUTHORING_BASE_URL = 'http://localhost';

export type ValueType = 'string' | 'int';

export interface Parameter {
  readonly name: string;
  readonly type: ValueType;
}

export interface ResultElement {
  readonly name: string;
  readonly type: TypeRef;
  /** minOccurs="0": a response may leave the result out (an empty answer). */
  readonly optional: boolean;
}

export interface Operation {
  readonly name: string;
  readonly endpointName: string;
  readonly parameters: readonly Parameter[];
  /** Per profile, the child of <OpResponse>, or undefined where the response is empty. */
  readonly results: Readonly<Record<Profile, ResultElement | undefined>>;
}

export interface Endpoint {
  /** The service name, which is also the .asmx file name (GetStudentsInformation, ...). */
  readonly name: string;
  /** "/GetStudentsInformation.asmx" */
  readonly path: string;
  readonly operations: readonly Operation[];
  /** The WSDL files as authored, per profile. */
  readonly wsdlText: Readonly<Record<Profile, string>>;
}

export interface Catalog {
  readonly endpoints: readonly Endpoint[];
  readonly operations: readonly Operation[];
  endpointByPath(path: string): Endpoint | undefined;
}

export class CatalogError extends Error {}

/* node-soap's WSDL model is untyped; these are the few shapes read from it. */
interface SchemaNode {
  $name?: string;
  $type?: string;
  $minOccurs?: string;
  $maxOccurs?: string;
  $nillable?: string;
  children?: SchemaNode[];
}
interface SoapMethod {
  soapAction?: string;
  style?: string;
}
interface WsdlModel {
  definitions: {
    $targetNamespace: string;
    services: Record<string, { ports: Record<string, { binding: { methods: Record<string, SoapMethod> } }> }>;
    schemas: Record<string, { elements: Record<string, SchemaNode>; complexTypes: Record<string, SchemaNode> }>;
  };
}

function parseWsdl(text: string, fileName: string): Promise<WsdlModel> {
  return new Promise((resolve, reject) => {
    const wsdl = new WSDL(text, `${AUTHORING_BASE_URL}/${fileName}`, {});
    wsdl.onReady((error: unknown) => (error ? reject(error) : resolve(wsdl as unknown as WsdlModel)));
  });
}

function valueTypeOf(typeName: string | undefined, where: string): ValueType {
  switch (typeName) {
    case 's:string':
      return 'string';
    case 's:int':
      return 'int';
    default:
      throw new CatalogError(`${where}: unsupported parameter type ${String(typeName)}`);
  }
}

const PRIMITIVES: ReadonlySet<string> = new Set<PrimitiveName>([
  'string',
  'int',
  'double',
  'boolean',
  'date',
  'base64Binary',
]);

/**
 * The primitives that are .NET value types. XmlSerializer always writes a value type, so ASMX
 * declares such an element minOccurs="1" (a Nullable one nillable as well), and .NET's wsdl.exe
 * turns one declared minOccurs="0" into an out parameter with a "Specified" flag instead of a
 * return value or a plain property. The catalog refuses that declaration.
 */
const VALUE_TYPES: ReadonlySet<string> = new Set<PrimitiveName>(['int', 'double', 'boolean', 'date']);

function checkValueTypeOccurs(node: SchemaNode, where: string): void {
  const [prefix, local] = String(node.$type).split(':');
  if (prefix === 's' && VALUE_TYPES.has(local) && node.$minOccurs === '0') {
    throw new CatalogError(`${where}: ${node.$name} is of a value type (${local}) and must be minOccurs="1"`);
  }
}

/**
 * Resolves a schema type name to a TypeRef: s:xxx primitives, and tns: complex types, which are
 * arrays when their sequence is one unbounded element (ASMX's ArrayOfX) and records otherwise.
 */
function typeRefOf(
  typeName: string | undefined,
  complexTypes: Record<string, SchemaNode>,
  where: string,
  resolved = new Map<string, TypeRef>(),
): TypeRef {
  const [prefix, local] = String(typeName).split(':');
  if (prefix === 's' && PRIMITIVES.has(local)) return { kind: 'primitive', name: local as PrimitiveName };
  const complex = prefix === 'tns' ? complexTypes[local] : undefined;
  if (!complex) throw new CatalogError(`${where}: unsupported type ${String(typeName)}`);
  const known = resolved.get(local);
  if (known) return known;
  const elements = sequenceOf(complex);
  if (elements.length === 1 && elements[0].$maxOccurs === 'unbounded') {
    const array: TypeRef = {
      kind: 'array',
      name: local,
      itemElement: String(elements[0].$name),
      itemNillable: elements[0].$nillable === 'true',
      item: typeRefOf(elements[0].$type, complexTypes, where, resolved),
    };
    resolved.set(local, array);
    return array;
  }
  for (const element of elements) checkValueTypeOccurs(element, `${where} ${local}`);
  const fields = elements.map((element) => ({
    element: String(element.$name),
    property: propertyNameOf(String(element.$name)),
    type: typeRefOf(element.$type, complexTypes, `${where} ${local}.${element.$name}`, resolved),
    nillable: element.$nillable === 'true',
    optional: element.$minOccurs === '0',
  }));
  const record: TypeRef = { kind: 'record', name: local, fields };
  resolved.set(local, record);
  return record;
}

/**
 * The <s:element> children of a <s:sequence>, in order: of a named complex type directly, or of
 * an element's anonymous <s:complexType>.
 */
function sequenceOf(node: SchemaNode): SchemaNode[] {
  const first = node.children?.[0];
  if (!first) return [];
  const sequence = first.children?.some((child) => child.$name !== undefined) ? first : first.children?.[0];
  return sequence?.children ?? [];
}

interface EndpointReading {
  name: string;
  operations: Array<{ name: string; parameters: Parameter[]; result: ResultElement | undefined }>;
}

function readEndpoint(model: WsdlModel, fileName: string): EndpointReading {
  const definitions = model.definitions;
  if (definitions.$targetNamespace !== AUTHORING_NAMESPACE) {
    throw new CatalogError(`${fileName}: targetNamespace must be ${AUTHORING_NAMESPACE}`);
  }
  const serviceNames = Object.keys(definitions.services);
  if (serviceNames.length !== 1) throw new CatalogError(`${fileName}: expected exactly one wsdl:service`);
  const name = serviceNames[0];
  if (!fileName.endsWith(`${name}.wsdl`))
    throw new CatalogError(`${fileName}: service ${name} must live in ${name}.wsdl`);
  const soapPort = definitions.services[name].ports[`${name}Soap`];
  if (!soapPort) throw new CatalogError(`${fileName}: missing port ${name}Soap`);
  const schema = definitions.schemas[AUTHORING_NAMESPACE];
  const operations = Object.entries(soapPort.binding.methods).map(([operationName, method]) => {
    const where = `${fileName} ${operationName}`;
    if (method.soapAction !== `${AUTHORING_NAMESPACE}${operationName}` || method.style !== 'document') {
      throw new CatalogError(`${where}: soapAction must be ${AUTHORING_NAMESPACE}${operationName}, style document`);
    }
    const request = schema.elements[operationName];
    const response = schema.elements[`${operationName}Response`];
    if (!request || !response) throw new CatalogError(`${where}: missing request or response element`);
    const parameters = sequenceOf(request).map((node) => ({
      name: String(node.$name),
      type: valueTypeOf(node.$type, `${where} parameter ${node.$name}`),
    }));
    const results = sequenceOf(response);
    if (results.length > 1) throw new CatalogError(`${where}: at most one result element is supported`);
    if (results[0]) checkValueTypeOccurs(results[0], `${where} result`);
    const result = results[0] && {
      name: String(results[0].$name),
      type: typeRefOf(results[0].$type, schema.complexTypes, `${where} result`),
      optional: results[0].$minOccurs === '0',
    };
    return { name: operationName, parameters, result };
  });
  return { name, operations };
}

async function readProfile(directory: string, fileName: string): Promise<{ text: string; reading: EndpointReading }> {
  const text = await readFile(join(directory, fileName), 'utf8');
  return { text, reading: readEndpoint(await parseWsdl(text, fileName), fileName) };
}

/** The typed file must describe the same operations and parameters as the documented one. */
function combine(
  documented: { text: string; reading: EndpointReading },
  typed: { text: string; reading: EndpointReading },
  fileName: string,
): Endpoint {
  const signature = (reading: EndpointReading) =>
    JSON.stringify(reading.operations.map((operation) => [operation.name, operation.parameters]));
  if (documented.reading.name !== typed.reading.name || signature(documented.reading) !== signature(typed.reading)) {
    throw new CatalogError(`typed/${fileName} must declare the same service, operations and parameters as ${fileName}`);
  }
  const name = documented.reading.name;
  const operations = documented.reading.operations.map((operation, index) => ({
    name: operation.name,
    endpointName: name,
    parameters: operation.parameters,
    results: { documented: operation.result, typed: typed.reading.operations[index].result },
  }));
  return { name, path: `/${name}.asmx`, operations, wsdlText: { documented: documented.text, typed: typed.text } };
}

/**
 * Handlers, typed results and the SOAP binding's cached response frames are keyed by operation
 * name alone, so two endpoints may share a name only if they declare the same operation under it:
 * the same parameters and the same result in both profiles. Anything else is refused at start.
 */
function checkSharedOperationNames(endpoints: readonly Endpoint[]): void {
  const first = new Map<string, { endpoint: Endpoint; signature: string }>();
  for (const endpoint of endpoints) {
    for (const operation of endpoint.operations) {
      const signature = JSON.stringify([operation.parameters, operation.results]);
      const earlier = first.get(operation.name);
      if (!earlier) {
        first.set(operation.name, { endpoint, signature });
      } else if (earlier.signature !== signature) {
        throw new CatalogError(
          `${earlier.endpoint.name}.wsdl and ${endpoint.name}.wsdl both declare ${operation.name}, ` +
            'with different parameters or results; an operation name must mean one operation',
        );
      }
    }
  }
}

export async function loadCatalog(wsdlDirectory: string): Promise<Catalog> {
  const fileNames = (await readdir(wsdlDirectory)).filter((file) => file.endsWith('.wsdl')).sort();
  if (fileNames.length === 0) throw new CatalogError(`no .wsdl files in ${wsdlDirectory}`);
  const endpoints = await Promise.all(
    fileNames.map(async (fileName) =>
      combine(
        await readProfile(wsdlDirectory, fileName),
        await readProfile(join(wsdlDirectory, 'typed'), fileName),
        fileName,
      ),
    ),
  );
  checkSharedOperationNames(endpoints);
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return {
    endpoints,
    operations: endpoints.flatMap((endpoint) => endpoint.operations),
    endpointByPath: (path) => byPath.get(path),
  };
}
