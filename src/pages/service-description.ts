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

/** The DISCO document ASMX serves at ?disco. */
export function discoDocument(endpoint: Endpoint, namespace: string, baseUrl: string): string {
  const address = escapeXmlAttribute(baseUrl + endpoint.path);
  const ns = escapeXmlAttribute(namespace);
  return (
    '<?xml version="1.0" encoding="utf-8"?>\r\n' +
    '<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">\r\n' +
    `  <contractRef ref="${address}?wsdl" docRef="${address}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />\r\n` +
    `  <soap address="${address}" xmlns:q1="${ns}" binding="q1:${endpoint.name}Soap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />\r\n` +
    `  <soap address="${address}" xmlns:q2="${ns}" binding="q2:${endpoint.name}Soap12" xmlns="http://schemas.xmlsoap.org/disco/soap/" />\r\n` +
    '</discovery>'
  );
}
