import type { TypeRef } from '../contract/types';
import { INDENTED, primitiveText, typedContent, XSI_XSD_DECLARATIONS } from '../wire/typed-xml';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\r\n';

/**
 * The HTTP GET/POST answer for a result: an XML document whose root is named for the result's
 * type, as ASMX writes it. A string is `<string xmlns="ns">text</string>`; a record or list
 * declares xsi/xsd and is indented; a null result is the root with xsi:nil.
 */
export function typedDocument(type: TypeRef, value: unknown, namespace: string): string {
  const name = type.name;
  if (value === null || value === undefined) return `${DECLARATION}<${name} ${XSI_XSD_DECLARATIONS} xsi:nil="true" xmlns="${namespace}" />`;
  const attributes = type.kind === 'primitive' ? `xmlns="${namespace}"` : `${XSI_XSD_DECLARATIONS} xmlns="${namespace}"`;
  const content = type.kind === 'primitive' ? primitiveText(type, value) : typedContent(type, value, INDENTED, 0);
  return DECLARATION + (content === '' ? `<${name} ${attributes} />` : `<${name} ${attributes}>${content}</${name}>`);
}
