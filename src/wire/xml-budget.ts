import {
  DEFAULT_REQUEST_BUDGETS,
  MAX_ATTRIBUTES_PER_ELEMENT,
  MAX_NAMESPACES_PER_ELEMENT,
  type RequestBudgets,
} from '../config/request-budgets';

/**
 * What one XML request may hold, counted as each piece is read by either reader (the fast one or
 * saxes), so that the read stops at the first excess: elements, attributes and namespace
 * declarations of the whole document and of each element, depth, and characters of text.
 */

/** Why a body was refused before it was read to the end. */
export type RefusalKind =
  | 'malformed'
  | 'too-deep'
  | 'too-many-attributes'
  | 'too-many-namespaces'
  | 'too-many-elements'
  | 'too-many-attributes-in-document'
  | 'too-many-namespaces-in-document'
  | 'too-much-text';

/**
 * Thrown from a parser's event to stop the read with that refusal. It is no Error, so that
 * throwing it captures no stack trace, which cost more than reading a small envelope.
 */
export class Refusal {
  constructor(readonly kind: RefusalKind) {}
}

const TOO_DEEP = new Refusal('too-deep');
const TOO_MANY_ATTRIBUTES = new Refusal('too-many-attributes');
const TOO_MANY_NAMESPACES = new Refusal('too-many-namespaces');
const TOO_MANY_ELEMENTS = new Refusal('too-many-elements');
const DOCUMENT_ATTRIBUTES = new Refusal('too-many-attributes-in-document');
const DOCUMENT_NAMESPACES = new Refusal('too-many-namespaces-in-document');
const TOO_MUCH_TEXT = new Refusal('too-much-text');

/** The counts of one read against the budgets; each method throws a Refusal at the first excess. */
export class XmlBudget {
  private elements = 0;
  private attributes = 0;
  private namespaces = 0;
  private elementAttributes = 0;
  private elementNamespaces = 0;
  private characters = 0;

  constructor(readonly budgets: RequestBudgets = DEFAULT_REQUEST_BUDGETS) {}

  /** A start tag begins: one more element, whose attributes are counted from here. */
  element(): void {
    this.elements += 1;
    if (this.elements > this.budgets.xmlElements) throw TOO_MANY_ELEMENTS;
    this.elementAttributes = 0;
    this.elementNamespaces = 0;
  }

  /** An element opened at `depth` (1 the root). */
  depth(depth: number): void {
    if (depth > this.budgets.xmlDepth) throw TOO_DEEP;
  }

  /** One attribute of the current start tag; a namespace declaration when its name is xmlns or xmlns:*. */
  attribute(namespaceDeclaration: boolean): void {
    if (namespaceDeclaration) {
      this.elementNamespaces += 1;
      if (this.elementNamespaces > MAX_NAMESPACES_PER_ELEMENT) throw TOO_MANY_NAMESPACES;
      this.namespaces += 1;
      if (this.namespaces > this.budgets.xmlNamespaces) throw DOCUMENT_NAMESPACES;
    } else {
      this.elementAttributes += 1;
      if (this.elementAttributes > MAX_ATTRIBUTES_PER_ELEMENT) throw TOO_MANY_ATTRIBUTES;
      this.attributes += 1;
      if (this.attributes > this.budgets.xmlAttributes) throw DOCUMENT_ATTRIBUTES;
    }
  }

  text(characters: number): void {
    this.characters += characters;
    if (this.characters > this.budgets.xmlTextCharacters) throw TOO_MUCH_TEXT;
  }
}

/** What the Client fault says of a body refused for a budget (every refusal but a malformed body). */
export function refusalReason(kind: Exclude<RefusalKind, 'malformed'>, budgets: RequestBudgets): string {
  switch (kind) {
    case 'too-deep':
      return `The request nests elements more than ${budgets.xmlDepth} levels deep.`;
    case 'too-many-attributes':
      return `The request has an element with more than ${MAX_ATTRIBUTES_PER_ELEMENT} attributes.`;
    case 'too-many-namespaces':
      return `The request has an element with more than ${MAX_NAMESPACES_PER_ELEMENT} namespaces declared.`;
    case 'too-many-elements':
      return `The request has more than ${budgets.xmlElements} elements.`;
    case 'too-many-attributes-in-document':
      return `The request has more than ${budgets.xmlAttributes} attributes.`;
    case 'too-many-namespaces-in-document':
      return `The request has more than ${budgets.xmlNamespaces} namespaces declared.`;
    case 'too-much-text':
      return `The request has more than ${budgets.xmlTextCharacters} characters of text.`;
  }
}
