import { escapeXmlAttribute, escapeXmlText } from '../../wire/xml-escape';
import { SOAP11, SOAP12, type SoapVersion } from './soap-version';

/**
 * Writes response and fault envelopes byte for byte as ASMX does: one line, the XML
 * declaration, soap/xsi/xsd prefixes in that order, self-closing empty elements.
 */

const XSI_XSD = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';
const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

function envelopeStart(version: SoapVersion): string {
  return `${DECLARATION}<soap:Envelope xmlns:soap="${version.envelopeNamespace}" ${XSI_XSD}>`;
}

const BODY_START = '<soap:Body>';
const BODY_END = '</soap:Body></soap:Envelope>';

function envelope(version: SoapVersion, body: string, header = ''): string {
  return `${envelopeStart(version)}${header}${BODY_START}${body}${BODY_END}`;
}

export function responseEnvelope(version: SoapVersion, bodyContent: string): string {
  return envelope(version, bodyContent);
}

/** A response envelope's text before and after its body content, for writing the content between. */
export function responseEnvelopeAround(version: SoapVersion): { readonly before: string; readonly after: string } {
  return { before: envelopeStart(version) + BODY_START, after: BODY_END };
}

export type FaultSide = 'sender' | 'receiver';

export function faultEnvelope(version: SoapVersion, side: FaultSide, text: string): string {
  const code = side === 'sender' ? version.senderCode : version.receiverCode;
  return envelope(version, faultElement(version, code, text, true));
}

/**
 * A fault element. A fault about a header block has no detail element: ASMX leaves it out for
 * header faults, as SOAP reserves the detail for errors in the Body.
 */
function faultElement(version: SoapVersion, code: string, text: string, withDetail: boolean): string {
  if (version === SOAP11) {
    return (
      `<soap:Fault><faultcode>${code}</faultcode>` +
      `<faultstring>${escapeXmlText(text)}</faultstring>${withDetail ? '<detail />' : ''}</soap:Fault>`
    );
  }
  return (
    `<soap:Fault><soap:Code><soap:Value>${code}</soap:Value></soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${escapeXmlText(text)}</soap:Text></soap:Reason>` +
    `${withDetail ? '<soap:Detail />' : ''}</soap:Fault>`
  );
}

/**
 * The MustUnderstand fault for a header block the service does not process, naming it by its
 * local name; SOAP 1.2 also names it by its qualified name in a NotUnderstood header block.
 */
export function mustUnderstandEnvelope(
  version: SoapVersion,
  block: { readonly localName: string; readonly namespace: string },
): string {
  const fault = faultElement(
    version,
    'soap:MustUnderstand',
    `SOAP header ${block.localName} was not understood.`,
    false,
  );
  if (version === SOAP11) return envelope(version, fault);
  const qname = block.namespace === '' ? block.localName : `q0:${block.localName}`;
  const declaration = block.namespace === '' ? '' : ` xmlns:q0="${escapeXmlAttribute(block.namespace)}"`;
  return envelope(
    version,
    fault,
    `<soap:Header><soap:NotUnderstood qname="${escapeXmlAttribute(qname)}"${declaration} /></soap:Header>`,
  );
}

/**
 * The fault for a root element that is not the envelope the Content-Type promised, with the
 * SOAP 1.2 Upgrade header listing both supported envelopes, as ASMX sends it.
 */
export function versionMismatchEnvelope(version: SoapVersion, foundNamespace: string): string {
  const upgrade =
    `<soap:Header><soap12:Upgrade xmlns:soap12="${SOAP12.envelopeNamespace}">` +
    `<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="${SOAP11.envelopeNamespace}" />` +
    `<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="${SOAP12.envelopeNamespace}" />` +
    `</soap12:Upgrade></soap:Header>`;
  const text =
    `Possible SOAP version mismatch: Envelope namespace ${foundNamespace} was unexpected. ` +
    `Expecting ${version.envelopeNamespace}.`;
  return envelope(version, faultElement(version, 'soap:VersionMismatch', text, true), upgrade);
}
