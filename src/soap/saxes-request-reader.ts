import { SaxesParser } from 'saxes';
import {
  EnvelopeReading,
  MAX_ATTRIBUTES,
  MAX_NAMESPACE_DECLARATIONS,
  type ReadResult,
  Refusal,
} from './envelope-reading';

/**
 * Reads any SOAP request body with saxes, in one streaming pass. Documents with a DOCTYPE,
 * undefined entities, excessive nesting or elements with too many attributes or namespace
 * declarations are refused; nothing is ever expanded from a DTD. The attribute bounds are
 * checked as each attribute is read, so that a body of a million attributes costs no more than a
 * hundred of them (saxes compares each element's attributes with each other).
 */

const MALFORMED = new Refusal('malformed');

/**
 * saxes keeps each handler in a property it adds to the parser under a computed name, and V8
 * turns an object that gains properties that way into a slow dictionary-mode object: every
 * parse then took about four times as long (some 35 us against 8 us for a HelloWorld envelope).
 * So the handlers are set once, on this subclass's prototype, and each parser stays a fast
 * object. saxes calls some handlers without the parser as `this`; they find the request being
 * read in `reading`, and as a read is synchronous there is only ever one.
 */
class RequestParser extends SaxesParser<{ xmlns: true; position: true }> {
  /**
   * Every well-formedness error ends the read. saxes would first make an Error with the line and
   * column in its message, which the read does not use and which costs several microseconds.
   */
  override fail(_message: string): this {
    throw MALFORMED;
  }
}

let reading: SaxesReading | undefined;

/**
 * A parser that finished its last document cleanly, kept for the next one: saxes resets itself
 * at the end of a document, and making a parser costs more than a small envelope's read. One
 * that stopped on an error is in the middle of a document and is dropped.
 */
let spareParser: RequestParser | undefined;

function current(): SaxesReading {
  if (!reading) throw new Error('a SOAP request parser ran outside readWithSaxes');
  return reading;
}

const handlers = RequestParser.prototype;
handlers.on('doctype', () => {
  throw MALFORMED;
});
handlers.on('opentagstart', () => current().openTagStart());
handlers.on('attribute', (attribute) => current().countAttribute(attribute.name));
handlers.on('opentag', (tag) => current().envelope.openTag(tag));
handlers.on('text', (chunk) => current().envelope.addText(chunk));
handlers.on('cdata', (chunk) => current().envelope.addText(chunk));
handlers.on('closetag', () => current().closeTag());

/** One read with saxes: the envelope's state, and the attribute bounds of the element being read. */
class SaxesReading {
  readonly envelope: EnvelopeReading;
  private attributes = 0;
  private namespaceDeclarations = 0;

  constructor(
    private readonly text: string,
    private readonly parser: RequestParser,
  ) {
    this.envelope = new EnvelopeReading(text);
  }

  read(): ReadResult {
    reading = this;
    try {
      this.parser.write(this.text).close();
      spareParser = this.parser;
    } catch (error) {
      return { kind: error instanceof Refusal ? error.kind : 'malformed' };
    } finally {
      reading = undefined;
    }
    return this.envelope.result();
  }

  openTagStart(): void {
    this.attributes = 0;
    this.namespaceDeclarations = 0;
    this.envelope.openTagStart(this.parser.position);
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

  closeTag(): void {
    this.envelope.closeTag(this.parser.position);
  }
}

export function readWithSaxes(text: string): ReadResult {
  const parser = spareParser ?? new RequestParser({ xmlns: true, position: true });
  spareParser = undefined;
  return new SaxesReading(text, parser).read();
}
