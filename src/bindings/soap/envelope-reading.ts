import type { ElementTag } from './element-tag';
import { HeaderReading, type SoapHeader } from './header-reader';
import { type RefusalKind, XmlBudget } from '../../wire/xml-budget';

export { Refusal, type RefusalKind } from '../../wire/xml-budget';

/**
 * What reading a SOAP request finds, and the one piece of code that finds it from a parser's
 * events: the envelope's namespace, whether it has a Body, the Body's first element and that
 * element's children with their text, and the Header. Both readers (the fast one for the common
 * envelope, saxes for the rest) feed it the same events, so their results cannot drift apart.
 */

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

/** Depths: 1 the envelope, 2 Header/Body, 3 the operation element, 4 its parameters. */
const BODY_DEPTH = 2;
const OPERATION_DEPTH = 3;
const PARAMETER_DEPTH = 4;

/** The state of one read: where the parser is in the envelope and what it has found so far. */
export class EnvelopeReading {
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

  constructor(
    private readonly text: string,
    /** The document's budgets, counted here for what both readers report alike and by them for attributes. */
    readonly budget: XmlBudget = new XmlBudget(),
  ) {}

  result(): ReadResult {
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

  /**
   * A start tag's name was read; `position` is saxes's position then, just past the character
   * that ended the name. The offset of the name is worked out only when an element awaits it.
   */
  openTagStart(position: number): void {
    this.budget.element();
    if (this.awaitingNextNode) this.markNextNode(this.text.lastIndexOf('<', position - 1) + 1);
  }

  openTag(tag: ElementTag): void {
    this.depth += 1;
    this.budget.depth(this.depth);
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
    this.budget.text(chunk.length);
    if (this.currentChild && this.depth === PARAMETER_DEPTH) this.currentChild.text += chunk;
    else if (this.inHeader) this.headerReading?.addText(this.depth - BODY_DEPTH, chunk);
  }

  /** An element ended; `position` is saxes's position then, just past the tag's '>'. */
  closeTag(position: number): void {
    if (this.awaitingNextNode) this.markNextNode(this.text.lastIndexOf('</', position - 1) + 2);
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
