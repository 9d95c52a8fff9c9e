import type { TypeRef } from '../contract/types';
import { escapeXmlText } from './xml-escape';

/**
 * Writes a typed result as XML the way ASMX's XmlSerializer does: fields in schema order, a null
 * nillable field as xsi:nil, a null optional field left out, empty values as self-closing
 * elements. SOAP bodies are written compact; HTTP GET/POST documents indented by two spaces with
 * CRLF line breaks, as ASMX writes them.
 */
export interface XmlLayout {
  /** Undefined for compact output; otherwise the line break before each nested element. */
  readonly newline: string | undefined;
}

export const COMPACT: XmlLayout = { newline: undefined };
export const INDENTED: XmlLayout = { newline: '\r\n' };

export const XSI_XSD_DECLARATIONS = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

export function primitiveText(type: TypeRef, value: unknown): string {
  if (type.kind !== 'primitive') throw new TypeError(`${type.name} is not a primitive`);
  if (type.name === 'base64Binary') return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
  if (type.name === 'boolean') return value ? 'true' : 'false';
  return escapeXmlText(String(value));
}

function lineStart(layout: XmlLayout, depth: number): string {
  return layout.newline === undefined ? '' : layout.newline + '  '.repeat(depth);
}

/**
 * The content of an element of this type: text for a primitive, child elements otherwise.
 * Written by appending to one string: lists of hundreds of records are common, and building an
 * array of parts per element and joining it cost a third of writing such a list.
 */
export function typedContent(type: TypeRef, value: unknown, layout: XmlLayout, depth: number): string {
  if (type.kind === 'primitive') return primitiveText(type, value);
  let written = '';
  if (type.kind === 'array') {
    for (const item of value as readonly unknown[]) written += typedElement(type.itemElement, type.item, item, true, layout, depth + 1);
  } else {
    const record = value as Record<string, unknown>;
    for (const field of type.fields) written += typedElement(field.element, field.type, record[field.property], field.nillable, layout, depth + 1);
  }
  return written === '' ? '' : written + lineStart(layout, depth);
}

/** One element: `<name>content</name>`, `<name />` when empty, xsi:nil or nothing when null. */
export function typedElement(name: string, type: TypeRef, value: unknown, nillable: boolean, layout: XmlLayout, depth: number): string {
  const start = layout.newline === undefined ? '' : lineStart(layout, depth);
  if (value === null || value === undefined) return nillable ? `${start}<${name} xsi:nil="true" />` : '';
  const content = typedContent(type, value, layout, depth);
  return content === '' ? `${start}<${name} />` : `${start}<${name}>${content}</${name}>`;
}
