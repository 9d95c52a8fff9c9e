import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WSDL } from 'soap';

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
  readonly type: ValueType;
}

export interface Operation {
  readonly name: string;
  readonly endpointName: string;
  readonly parameters: readonly Parameter[];
  /** The child of <OpResponse>, or undefined for an operation that answers an empty response. */
  readonly result: ResultElement | undefined;
}

export interface Endpoint {
  /** The service name, which is also the .asmx file name (GetStudentsInformation, ...). */
  readonly name: string;
  /** "/GetStudentsInformation.asmx" */
  readonly path: string;
  readonly operations: readonly Operation[];
  /** The WSDL file as authored. */
  readonly wsdlText: string;
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
  $ref?: string;
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
    schemas: Record<string, { elements: Record<string, SchemaNode> }>;
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
      throw new CatalogError(`${where}: unsupported type ${String(typeName)}`);
  }
}

/** The <s:element> children of an element's <s:complexType><s:sequence>, in order. */
function sequenceOf(element: SchemaNode): SchemaNode[] {
  const complexType = element.children?.find((child) => child.children !== undefined);
  const sequence = complexType?.children?.[0];
  return sequence?.children ?? [];
}

function readEndpoint(model: WsdlModel, fileName: string, text: string): Endpoint {
  const definitions = model.definitions;
  if (definitions.$targetNamespace !== AUTHORING_NAMESPACE) {
    throw new CatalogError(`${fileName}: targetNamespace must be ${AUTHORING_NAMESPACE}`);
  }
  const serviceNames = Object.keys(definitions.services);
  if (serviceNames.length !== 1) throw new CatalogError(`${fileName}: expected exactly one wsdl:service`);
  const name = serviceNames[0];
  if (`${name}.wsdl` !== fileName) throw new CatalogError(`${fileName}: service ${name} must live in ${name}.wsdl`);
  const soapPort = definitions.services[name].ports[`${name}Soap`];
  if (!soapPort) throw new CatalogError(`${fileName}: missing port ${name}Soap`);
  const elements = definitions.schemas[AUTHORING_NAMESPACE].elements;

  const operations = Object.entries(soapPort.binding.methods).map(([operationName, method]): Operation => {
    const where = `${fileName} ${operationName}`;
    if (method.soapAction !== `${AUTHORING_NAMESPACE}${operationName}` || method.style !== 'document') {
      throw new CatalogError(`${where}: soapAction must be ${AUTHORING_NAMESPACE}${operationName}, style document`);
    }
    const request = elements[operationName];
    const response = elements[`${operationName}Response`];
    if (!request || !response) throw new CatalogError(`${where}: missing request or response element`);
    const parameters = sequenceOf(request).map((node) => ({
      name: String(node.$name),
      type: valueTypeOf(node.$type, `${where} parameter ${node.$name}`),
    }));
    const results = sequenceOf(response);
    if (results.length > 1) throw new CatalogError(`${where}: at most one result element is supported`);
    const result = results[0] && { name: String(results[0].$name), type: valueTypeOf(results[0].$type, `${where} result`) };
    return { name: operationName, endpointName: name, parameters, result };
  });
  return { name, path: `/${name}.asmx`, operations, wsdlText: text };
}

export async function loadCatalog(wsdlDirectory: string): Promise<Catalog> {
  const fileNames = (await readdir(wsdlDirectory)).filter((file) => file.endsWith('.wsdl')).sort();
  if (fileNames.length === 0) throw new CatalogError(`no .wsdl files in ${wsdlDirectory}`);
  const endpoints = await Promise.all(
    fileNames.map(async (fileName) => {
      const text = await readFile(join(wsdlDirectory, fileName), 'utf8');
      return readEndpoint(await parseWsdl(text, fileName), fileName, text);
    }),
  );
  const byPath = new Map(endpoints.map((endpoint) => [endpoint.path, endpoint]));
  return {
    endpoints,
    operations: endpoints.flatMap((endpoint) => endpoint.operations),
    endpointByPath: (path) => byPath.get(path),
  };
}
