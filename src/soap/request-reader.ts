import { SaxesParser, type SaxesTagNS } from 'saxes';
import { HeaderReading, type SoapHeader } from './header-reader';

/**
 * Reads a SOAP request body in one streaming pass: the envelope's namespace, whether it has a
 * Body, the Body's first element and that element's children with their text. It records where
 * each child is followed by the next node, because ASMX reports a bad int at that position.
 * Documents with a DOCTYPE, undefined entities, excessive nesting or elements with too many
 * attributes or namespace declarations are refused; nothing is ever expanded from a DTD. The
 * attribute bounds are checked as each attribute is read, so that a body of a million attributes
 * costs no more than a hundred of them (saxes compares each element's attributes with each other).
 */

export const MAX_ELEMENT_DEPTH = 32;
export const MAX_ATTRIBUTES = 100;
export const MAX_NAMESPACE_DECLARATIONS = 100;
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

/** Why a body was refused before it was read to the end. */
export type RefusalKind = 'malformed' | 'too-deep' | 'too-many-attributes' | 'too-many-namespaces';

export type ReadResult =
  | { kind: RefusalKind }
  | {
      kind: 'read';
      rootLocalName: string;
      rootNamespace: string;
      hasBody: boolean;
      bodyElement: BodyElement | undefined;
      /** The Header, when the envelope has one. */
      header: SoapHeader | undefined;
    };

class Refusal extends Error {
  constructor(readonly kind: RefusalKind) {
    super(kind);
  }
}

/** Depths: 1 the envelope, 2 Header/Body, 3 the operation element, 4 its parameters. */
const BODY_DEPTH = 2;
const OPERATION_DEPTH = 3;
const PARAMETER_DEPTH = 4;

/**
 * saxes keeps each handler in a property it adds to the parser under a computed name, and V8
 * turns an object that gains properties that way into a slow dictionary-mode object: every
 * parse then took about four times as long (some 35 us against 8 us for a HelloWorld envelope).
 * So the handlers are set once, on this subclass's prototype, and each parser stays a fast
 * object. saxes calls some handlers without the parser as `this`; they find the request being
 * read in `reading`, and as a read is synchronous there is only ever one.
 */
class RequestParser extends SaxesParser<{ xmlns: true; position: true }> {}

let reading: RequestReading | undefined;

function current(): RequestReading {
  if (!reading) throw new Error('a SOAP request parser ran outside readSoapRequest');
  return reading;
}

const handlers = RequestParser.prototype;
handlers.on('error', () => {
  throw new Refusal('malformed');
});
handlers.on('doctype', () => {
  throw new Refusal('malformed');
});
handlers.on('opentagstart', () => current().openTagStart());
handlers.on('attribute', (attribute) => current().countAttribute(attribute.name));
handlers.on('opentag', (tag) => current().openTag(tag));
handlers.on('text', (chunk) => current().addText(chunk));
handlers.on('cdata', (chunk) => current().addText(chunk));
handlers.on('closetag', () => current().closeTag());

/** The state of one read: where the parser is in the envelope and what it has found so far. */
class RequestReading {
  private readonly parser = new RequestParser({ xmlns: true, position: true });
  private depth = 0;
  private rootLocalName = '';
  private rootNamespace = '';
  private envelopeNamespace: string | undefined;
  private inBody = false;
  private hasBody = false;
  private bodyElement: BodyElement | undefined;
  private inOperation = false;
  private currentChild: ChildElement | undefined;
  private awaitingNextNode: ChildElement | undefined;
  /** Made only for an envelope with a Header, so that one without pays nothing for it. */
  private headerReading: HeaderReading | undefined;
  private inHeader = false;
  /** The attributes and namespace declarations of the element being read. */
  private attributes = 0;
  private namespaceDeclarations = 0;

  constructor(private readonly text: string) {}

  read(): ReadResult {
    reading = this;
    try {
      this.parser.write(this.text).close();
    } catch (error) {
      return { kind: error instanceof Refusal ? error.kind : 'malformed' };
    } finally {
      reading = undefined;
    }
    if (this.rootLocalName === '') return { kind: 'malformed' };
    return {
      kind: 'read',
      rootLocalName: this.rootLocalName,
      rootNamespace: this.rootNamespace,
      hasBody: this.hasBody,
      bodyElement: this.bodyElement,
      header: this.headerReading?.header,
    };
  }

  openTagStart(): void {
    this.attributes = 0;
    this.namespaceDeclarations = 0;
    if (this.awaitingNextNode) this.markNextNode(this.text.lastIndexOf('<', this.parser.position - 1) + 1);
  }

  countAttribute(name: string): void {
    if (name === 'xmlns' || name.startsWith('xmlns:')) {
      this.namespaceDeclarations += 1;
      if (this.namespaceDeclarations > MAX_NAMESPACE_DECLARATIONS) throw new Refusal('too-many-namespaces');
    } else {
      this.attributes += 1;
      if (this.attributes > MAX_ATTRIBUTES) throw new Refusal('too-many-attributes');
    }
  }

  openTag(tag: SaxesTagNS): void {
    this.depth += 1;
    if (this.depth > MAX_ELEMENT_DEPTH) throw new Refusal('too-deep');
    if (this.depth === 1) {
      this.rootLocalName = tag.local;
      this.rootNamespace = tag.uri;
      this.envelopeNamespace = tag.local === 'Envelope' ? tag.uri : undefined;
    } else if (this.depth === BODY_DEPTH) {
      this.inBody = this.envelopeNamespace !== undefined && tag.local === 'Body' && tag.uri === this.envelopeNamespace;
      this.hasBody ||= this.inBody;
      this.inHeader =
        this.envelopeNamespace !== undefined && tag.local === 'Header' && tag.uri === this.envelopeNamespace;
      if (this.inHeader) this.headerReading ??= new HeaderReading(this.envelopeNamespace as string);
    } else if (this.inHeader) {
      this.headerReading?.openTag(this.depth - BODY_DEPTH, tag);
    } else if (this.depth === OPERATION_DEPTH && this.inBody && !this.bodyElement) {
      this.bodyElement = { localName: tag.local, namespace: tag.uri, children: [] };
      this.inOperation = true;
    } else if (this.depth === PARAMETER_DEPTH && this.inOperation && this.bodyElement) {
      const nilAttribute = Object.values(tag.attributes).find(
        (attribute) => attribute.local === 'nil' && attribute.uri === XSI_NAMESPACE,
      );
      this.currentChild = {
        localName: tag.local,
        namespace: tag.uri,
        text: '',
        nil: nilAttribute !== undefined && (nilAttribute.value.trim() === 'true' || nilAttribute.value.trim() === '1'),
        nextNodeOffset: -1,
      };
      this.bodyElement.children.push(this.currentChild);
    }
  }

  addText(chunk: string): void {
    if (this.currentChild && this.depth === PARAMETER_DEPTH) this.currentChild.text += chunk;
    else if (this.inHeader) this.headerReading?.addText(this.depth - BODY_DEPTH, chunk);
  }

  closeTag(): void {
    if (this.awaitingNextNode) this.markNextNode(this.text.lastIndexOf('</', this.parser.position - 1) + 2);
    if (this.inHeader && this.depth > BODY_DEPTH) {
      this.headerReading?.closeTag(this.depth - BODY_DEPTH);
    } else if (this.depth === PARAMETER_DEPTH && this.currentChild) {
      this.awaitingNextNode = this.currentChild;
      this.currentChild = undefined;
    } else if (this.depth === OPERATION_DEPTH) {
      this.inOperation = false;
    } else if (this.depth === BODY_DEPTH) {
      this.inBody = false;
      this.inHeader = false;
    }
    this.depth -= 1;
  }

  private markNextNode(nameOffset: number): void {
    if (this.awaitingNextNode) {
      this.awaitingNextNode.nextNodeOffset = nameOffset;
      this.awaitingNextNode = undefined;
    }
  }
}

export function readSoapRequest(text: string): ReadResult {
  return new RequestReading(text).read();
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
