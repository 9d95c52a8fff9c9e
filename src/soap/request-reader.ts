import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * Reads a SOAP request body in one streaming pass: the envelope's namespace, whether it has a
 * Body, the Body's first element and that element's children with their text. It records where
 * each child is followed by the next node, because ASMX reports a bad int at that position.
 * Documents with a DOCTYPE, undefined entities or excessive nesting are refused; nothing is
 * ever expanded from a DTD.
 */

export const MAX_ELEMENT_DEPTH = 32;
const XSI_NAMESPACE = 'http://www.w3.org/2001/XMLSchema-instance';

export interface ChildElement {
  readonly localName: string;
  readonly namespace: string;
  text: string;
  nil: boolean;
  /** Offset in the request text of the name of the node that follows this element. */
  nextNodeOffset: number;
}

export interface BodyElement {
  readonly localName: string;
  readonly namespace: string;
  readonly children: ChildElement[];
}

export type ReadResult =
  | { kind: 'malformed' }
  | { kind: 'too-deep' }
  | { kind: 'read'; rootLocalName: string; rootNamespace: string; hasBody: boolean; bodyElement: BodyElement | undefined };

class Refusal extends Error {
  constructor(readonly kind: 'malformed' | 'too-deep') {
    super(kind);
  }
}

/** Depths: 1 the envelope, 2 Header/Body, 3 the operation element, 4 its parameters. */
const BODY_DEPTH = 2;
const OPERATION_DEPTH = 3;
const PARAMETER_DEPTH = 4;

export function readSoapRequest(text: string): ReadResult {
  const parser = new SaxesParser({ xmlns: true, position: true });
  let depth = 0;
  let rootLocalName = '';
  let rootNamespace = '';
  let envelopeNamespace: string | undefined;
  let inBody = false;
  let hasBody = false;
  let bodyElement: BodyElement | undefined;
  let inOperation = false;
  let currentChild: ChildElement | undefined;
  let awaitingNextNode: ChildElement | undefined;

  const markNextNode = (nameOffset: number) => {
    if (awaitingNextNode) {
      awaitingNextNode.nextNodeOffset = nameOffset;
      awaitingNextNode = undefined;
    }
  };

  parser.on('error', () => {
    throw new Refusal('malformed');
  });
  parser.on('doctype', () => {
    throw new Refusal('malformed');
  });
  parser.on('opentagstart', () => {
    if (awaitingNextNode) markNextNode(text.lastIndexOf('<', parser.position - 1) + 1);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    depth += 1;
    if (depth > MAX_ELEMENT_DEPTH) throw new Refusal('too-deep');
    if (depth === 1) {
      rootLocalName = tag.local;
      rootNamespace = tag.uri;
      envelopeNamespace = tag.local === 'Envelope' ? tag.uri : undefined;
    } else if (depth === BODY_DEPTH) {
      inBody = envelopeNamespace !== undefined && tag.local === 'Body' && tag.uri === envelopeNamespace;
      hasBody ||= inBody;
    } else if (depth === OPERATION_DEPTH && inBody && !bodyElement) {
      bodyElement = { localName: tag.local, namespace: tag.uri, children: [] };
      inOperation = true;
    } else if (depth === PARAMETER_DEPTH && inOperation && bodyElement) {
      const nilAttribute = Object.values(tag.attributes).find((attribute) => attribute.local === 'nil' && attribute.uri === XSI_NAMESPACE);
      currentChild = {
        localName: tag.local,
        namespace: tag.uri,
        text: '',
        nil: nilAttribute !== undefined && (nilAttribute.value.trim() === 'true' || nilAttribute.value.trim() === '1'),
        nextNodeOffset: -1,
      };
      bodyElement.children.push(currentChild);
    }
  });
  const onText = (chunk: string) => {
    if (currentChild && depth === PARAMETER_DEPTH) currentChild.text += chunk;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    if (awaitingNextNode) markNextNode(text.lastIndexOf('</', parser.position - 1) + 2);
    if (depth === PARAMETER_DEPTH && currentChild) {
      awaitingNextNode = currentChild;
      currentChild = undefined;
    } else if (depth === OPERATION_DEPTH) {
      inOperation = false;
    } else if (depth === BODY_DEPTH) {
      inBody = false;
    }
    depth -= 1;
  });

  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refusal) return { kind: error.kind };
    return { kind: 'malformed' };
  }
  if (rootLocalName === '') return { kind: 'malformed' };
  return { kind: 'read', rootLocalName, rootNamespace, hasBody, bodyElement };
}

/** 1-based line and column of an offset, counting line breaks as XML does (CRLF, CR or LF). */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset; index += 1) {
    const char = text.charCodeAt(index);
    if (char === 10 || (char === 13 && text.charCodeAt(index + 1) !== 10)) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
