import type { Operation, ResultElement } from '../contract/catalog';
import type { TypeRef } from '../contract/types';
import { XSI_XSD_DECLARATIONS } from '../wire/typed-xml';
import { SOAP11, SOAP12, type SoapVersion } from '../bindings/soap/soap-version';
import { escapeHtml } from '../wire/html-escape';

/**
 * The four sample blocks of an operation page: request and response for SOAP 1.1, SOAP 1.2,
 * HTTP GET and HTTP POST, with placeholders (type names, "length") marked as ASMX marks them.
 */

/** A placeholder: shown in blue, as the value a caller substitutes. */
const placeholder = (text: string) => `<font class=value>${escapeHtml(text)}</font>`;

const XSI_XSD_SOAP = (version: SoapVersion) =>
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ' +
  `xmlns:${version === SOAP11 ? 'soap' : 'soap12'}="${version.envelopeNamespace}"`;

function soapEnvelope(version: SoapVersion, body: string[]): string[] {
  const prefix = version === SOAP11 ? 'soap' : 'soap12';
  return [
    escapeHtml('<?xml version="1.0" encoding="utf-8"?>'),
    escapeHtml(`<${prefix}:Envelope ${XSI_XSD_SOAP(version)}>`),
    escapeHtml(`  <${prefix}:Body>`),
    ...body.map((line) => `    ${line}`),
    escapeHtml(`  </${prefix}:Body>`),
    escapeHtml(`</${prefix}:Envelope>`),
  ];
}

function soapRequestBody(operation: Operation, namespace: string): string[] {
  if (operation.parameters.length === 0) return [escapeHtml(`<${operation.name} xmlns="${namespace}" />`)];
  return [
    escapeHtml(`<${operation.name} xmlns="${namespace}">`),
    ...operation.parameters.map(
      (parameter) =>
        `  ${escapeHtml(`<${parameter.name}>`)}${placeholder(parameter.type)}${escapeHtml(`</${parameter.name}>`)}`,
    ),
    escapeHtml(`</${operation.name}>`),
  ];
}

/**
 * Sample lines for an element of a result type, placeholders for values: a record's fields, and
 * an array's item twice, as ASMX's samples show them.
 */
function sampleElement(name: string, type: TypeRef, attributes = ''): string[] {
  if (type.kind === 'primitive')
    return [`${escapeHtml(`<${name}${attributes}>`)}${placeholder(type.name)}${escapeHtml(`</${name}>`)}`];
  const children =
    type.kind === 'array'
      ? [...sampleElement(type.itemElement, type.item), ...sampleElement(type.itemElement, type.item)]
      : type.fields.flatMap((field) => sampleElement(field.element, field.type));
  return [escapeHtml(`<${name}${attributes}>`), ...children.map((line) => `  ${line}`), escapeHtml(`</${name}>`)];
}

function soapResponseBody(operation: Operation, result: ResultElement | undefined, namespace: string): string[] {
  if (!result) return [escapeHtml(`<${operation.name}Response xmlns="${namespace}" />`)];
  return [
    escapeHtml(`<${operation.name}Response xmlns="${namespace}">`),
    ...sampleElement(result.name, result.type).map((line) => `  ${line}`),
    escapeHtml(`</${operation.name}Response>`),
  ];
}

function soapSample(
  version: SoapVersion,
  operation: Operation,
  result: ResultElement | undefined,
  path: string,
  host: string,
  namespace: string,
): { request: string; response: string } {
  const headers =
    version === SOAP11
      ? [
          `POST ${path} HTTP/1.1`,
          `Host: ${escapeHtml(host)}`,
          'Content-Type: text/xml; charset=utf-8',
          `Content-Length: ${placeholder('length')}`,
          `SOAPAction: "${escapeHtml(namespace + operation.name)}"`,
        ]
      : [
          `POST ${path} HTTP/1.1`,
          `Host: ${escapeHtml(host)}`,
          'Content-Type: application/soap+xml; charset=utf-8',
          `Content-Length: ${placeholder('length')}`,
        ];
  const responseHeaders = [
    'HTTP/1.1 200 OK',
    `Content-Type: ${version.contentType}`,
    `Content-Length: ${placeholder('length')}`,
  ];
  return {
    request: [...headers, '', ...soapEnvelope(version, soapRequestBody(operation, namespace))].join('\n'),
    response: [...responseHeaders, '', ...soapEnvelope(version, soapResponseBody(operation, result, namespace))].join(
      '\n',
    ),
  };
}

function httpResponse(result: ResultElement | undefined, namespace: string): string {
  if (!result) return 'HTTP/1.1 200 OK';
  const attributes =
    result.type.kind === 'primitive' ? ` xmlns="${namespace}"` : ` ${XSI_XSD_DECLARATIONS} xmlns="${namespace}"`;
  return [
    'HTTP/1.1 200 OK',
    'Content-Type: text/xml; charset=utf-8',
    `Content-Length: ${placeholder('length')}`,
    '',
    escapeHtml('<?xml version="1.0" encoding="utf-8"?>'),
    ...sampleElement(result.type.name, result.type, attributes),
  ].join('\n');
}

function fieldList(operation: Operation): string {
  return operation.parameters
    .map((parameter) => `${escapeHtml(parameter.name)}=${placeholder('string')}`)
    .join('&amp;');
}

export interface SampleBlock {
  readonly title: string;
  readonly introduction: string;
  readonly request: string;
  readonly response: string;
}

export function sampleBlocks(
  operation: Operation,
  result: ResultElement | undefined,
  path: string,
  host: string,
  namespace: string,
): SampleBlock[] {
  const soap11 = soapSample(SOAP11, operation, result, path, host, namespace);
  const soap12 = soapSample(SOAP12, operation, result, path, host, namespace);
  const fields = fieldList(operation);
  const operationPath = `${path}/${escapeHtml(operation.name)}`;
  return [
    {
      title: 'SOAP 1.1',
      introduction:
        'The following is a sample SOAP 1.1 request and response. ' +
        'The <font class=value>placeholders</font> shown need to be replaced with actual values.',
      ...soap11,
    },
    {
      title: 'SOAP 1.2',
      introduction:
        'The following is a sample SOAP 1.2 request and response. ' +
        'The <font class=value>placeholders</font> shown need to be replaced with actual values.',
      ...soap12,
    },
    {
      title: 'HTTP GET',
      introduction:
        'The following is a sample HTTP GET request and response. ' +
        'The <font class=value>placeholders</font> shown need to be replaced with actual values.',
      request: [`GET ${operationPath}${fields ? `?${fields}` : ''} HTTP/1.1`, `Host: ${escapeHtml(host)}`].join('\n'),
      response: httpResponse(result, namespace),
    },
    {
      title: 'HTTP POST',
      introduction:
        'The following is a sample HTTP POST request and response. ' +
        'The <font class=value>placeholders</font> shown need to be replaced with actual values.',
      request: [
        `POST ${operationPath} HTTP/1.1`,
        `Host: ${escapeHtml(host)}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${placeholder('length')}`,
        '',
        fields,
      ].join('\n'),
      response: httpResponse(result, namespace),
    },
  ];
}
