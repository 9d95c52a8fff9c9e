import type { TypeRef } from '../../contract/types';
import { INDENTED, writePrimitive, writeTypedContent, XSI_XSD_DECLARATIONS } from '../../wire/typed-xml';
import { KeptUtf8Writer } from '../../wire/kept-writer';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\r\n';
const writer = new KeptUtf8Writer();

/**
 * The HTTP GET/POST answer for a result: an XML document whose root is named for the result's
 * type, as ASMX writes it. A string is `<string xmlns="ns">text</string>`; a record or list
 * declares xsi/xsd and is indented; a null result is the root with xsi:nil. The document is
 * written by a writer kept for every document, and copied out at its size.
 */
export function typedDocument(type: TypeRef, value: unknown, namespace: string): Buffer {
  const name = type.name;
  const out = writer.start();
  out.markup(DECLARATION);
  if (value === null || value === undefined) {
    out.markup(`<${name} ${XSI_XSD_DECLARATIONS} xsi:nil="true" xmlns="${namespace}" />`);
    return writer.finish();
  }
  const attributes =
    type.kind === 'primitive' ? `xmlns="${namespace}"` : `${XSI_XSD_DECLARATIONS} xmlns="${namespace}"`;
  const rootStart = out.length;
  out.markup(`<${name} ${attributes}>`);
  const contentStart = out.length;
  if (type.kind === 'primitive') writePrimitive(out, type, value);
  else writeTypedContent(out, type, value, INDENTED, 0);
  if (out.length > contentStart) {
    out.markup(`</${name}>`);
  } else {
    out.truncate(rootStart);
    out.markup(`<${name} ${attributes} />`);
  }
  return writer.finish();
}
