import { create } from 'xmlbuilder2';
import { AUTHORING_BASE_URL, AUTHORING_NAMESPACE, type Endpoint } from '../contract/catalog';
import { escapeXmlAttribute } from '../wire/xml-escape';

/**
 * Serves an endpoint's WSDL as authored, with two substitutions: the configured namespace for
 * the authoring one, and the caller's base URL in every port address. The file is split once at
 * the addresses so that each request only joins strings.
 */
export class ServiceDescription {
  private readonly pieces: string[];
  private readonly path: string;

  constructor(wsdlText: string, path: string, namespace: string) {
    const text =
      namespace === AUTHORING_NAMESPACE
        ? wsdlText
        : wsdlText.split(`"${AUTHORING_NAMESPACE}`).join(`"${escapeXmlAttribute(namespace)}`);
    this.pieces = text.split(`location="${AUTHORING_BASE_URL}${path}"`);
    this.path = path;
  }

  render(baseUrl: string): string {
    return this.pieces.join(`location="${escapeXmlAttribute(baseUrl + this.path)}"`);
  }
}

const DISCO = 'http://schemas.xmlsoap.org/disco/';
const DISCO_SCL = 'http://schemas.xmlsoap.org/disco/scl/';
const DISCO_SOAP = 'http://schemas.xmlsoap.org/disco/soap/';

/**
 * The DISCO document ASMX serves at ?disco, byte for byte: CRLF line breaks, two-space indents, a
 * space before "/>", and each element's attributes in ASMX's order with its namespace last. Built
 * with xmlbuilder2, which escapes the caller's address; a DISCO request is rare, so the cost of a
 * builder is of no account here.
 */
export function discoDocument(endpoint: Endpoint, namespace: string, baseUrl: string): string {
  const address = baseUrl + endpoint.path;
  return create({ version: '1.0', encoding: 'utf-8' })
    .ele(DISCO, 'discovery', {
      'xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      xmlns: DISCO,
    })
    .ele('contractRef', { ref: `${address}?wsdl`, docRef: address, xmlns: DISCO_SCL })
    .up()
    .ele('soap', { address, 'xmlns:q1': namespace, binding: `q1:${endpoint.name}Soap`, xmlns: DISCO_SOAP })
    .up()
    .ele('soap', { address, 'xmlns:q2': namespace, binding: `q2:${endpoint.name}Soap12`, xmlns: DISCO_SOAP })
    .doc()
    .end({ prettyPrint: true, indent: '  ', newline: '\r\n', spaceBeforeSlash: true });
}
