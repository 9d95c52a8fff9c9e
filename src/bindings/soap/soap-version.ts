/** The two SOAP versions: their envelope namespaces, media types and fault code names. */
export interface SoapVersion {
  readonly name: '1.1' | '1.2';
  readonly envelopeNamespace: string;
  readonly contentType: string;
  readonly senderCode: string;
  readonly receiverCode: string;
}

export const SOAP11: SoapVersion = {
  name: '1.1',
  envelopeNamespace: 'http://schemas.xmlsoap.org/soap/envelope/',
  contentType: 'text/xml; charset=utf-8',
  senderCode: 'soap:Client',
  receiverCode: 'soap:Server',
};

export const SOAP12: SoapVersion = {
  name: '1.2',
  envelopeNamespace: 'http://www.w3.org/2003/05/soap-envelope',
  contentType: 'application/soap+xml; charset=utf-8',
  senderCode: 'soap:Sender',
  receiverCode: 'soap:Receiver',
};

/** The version a request's media type announces, before its envelope is read. */
export function soapVersionFor(mediaType: string): SoapVersion | undefined {
  if (mediaType === 'text/xml') return SOAP11;
  if (mediaType === 'application/soap+xml') return SOAP12;
  return undefined;
}

/** The version of an envelope, by its namespace. */
export function soapVersionOfEnvelope(namespace: string): SoapVersion | undefined {
  if (namespace === SOAP11.envelopeNamespace) return SOAP11;
  if (namespace === SOAP12.envelopeNamespace) return SOAP12;
  return undefined;
}
