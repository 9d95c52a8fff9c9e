import { SaxesParser } from 'saxes';
import { EnvelopeReading, type ReadResult, Refusal } from './envelope-reading';
import { XmlBudget } from '../../wire/xml-budget';

/**
 * Reads any SOAP request body with saxes, in one streaming pass. Documents with a DOCTYPE,
 * undefined entities, or beyond a budget (xml-budget.ts: elements, attributes, namespace
 * declarations, depth, text) are refused; nothing is ever expanded from a DTD. The budgets are
 * counted as each piece is read, so that a body of a million attributes costs no more than the
 * budget's worth of them (saxes compares each element's attributes with each other).
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

/** One read with saxes: the envelope's state and the document's budget. */
class SaxesReading {
  readonly envelope: EnvelopeReading;

  constructor(
    private readonly text: string,
    private readonly parser: RequestParser,
    budget: XmlBudget,
  ) {
    this.envelope = new EnvelopeReading(text, budget);
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
    this.envelope.openTagStart(this.parser.position);
  }

  countAttribute(name: string): void {
    this.envelope.budget.attribute(name === 'xmlns' || name.startsWith('xmlns:'));
  }

  closeTag(): void {
    this.envelope.closeTag(this.parser.position);
  }
}

export function readWithSaxes(text: string, budget = new XmlBudget()): ReadResult {
  const parser = spareParser ?? new RequestParser({ xmlns: true, position: true });
  spareParser = undefined;
  return new SaxesReading(text, parser, budget).read();
}
