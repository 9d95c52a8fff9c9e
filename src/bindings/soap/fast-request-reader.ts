import type { ElementAttribute } from './element-tag';
import { EnvelopeReading, type ReadResult, Refusal } from './envelope-reading';
import { XmlBudget } from '../../wire/xml-budget';

/**
 * Reads the envelope that nearly every client sends, at a fraction of saxes's cost, and gives up
 * (undefined) on anything else, which saxes then reads: it never accepts a document that is not
 * well-formed XML 1.0 with namespaces, and it refuses one only past a budget (xml-budget.ts),
 * counted as saxes counts it, so whenever it answers, saxes would have answered the same. What it
 * handles:
 * - an XML declaration at the very start, of version 1.0 (1.1 changes the rules of characters);
 * - elements and attributes with ASCII names (`[A-Za-z_][A-Za-z0-9._-]*`, or two of them joined by
 *   a colon), attribute values quoted and without '<', namespaces declared and resolved;
 * - text without ']]>' or any character XML 1.0 forbids, and whitespace around the root.
 * A text with '&' (a reference), '<!' (a comment, CDATA or a DOCTYPE) or "Header" (a SOAP Header,
 * which the header reader reads with saxes) is given up before it is read. The reader also gives
 * up on processing instructions, an unpaired surrogate (saxes reads some loosely), and a
 * redeclared `xml` or `xmlns` prefix or their namespaces.
 */

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const SLASH = 0x2f;
const COLON = 0x3a;
const LESS_THAN = 0x3c;
const EQUALS = 0x3d;
const GREATER_THAN = 0x3e;
const QUESTION_MARK = 0x3f;
const CLOSING_BRACKET = 0x5d;
const SURROGATES_START = 0xd800;
const LOW_SURROGATES_START = 0xdc00;
const PRIVATE_USE_START = 0xe000;
const LAST_CHARACTER = 0xfffd;

const NAME_START = 1;
const NAME_CHARACTER = 2;
const WHITESPACE = 4;
/** What each ASCII character can be in the subset read here. */
const CHARACTER_CLASSES = new Uint8Array(128);
for (let code = 0; code < 128; code += 1) {
  const char = String.fromCharCode(code);
  if (/[A-Za-z_]/.test(char)) CHARACTER_CLASSES[code] |= NAME_START | NAME_CHARACTER;
  if (/[0-9.-]/.test(char)) CHARACTER_CLASSES[code] |= NAME_CHARACTER;
}
for (const code of [SPACE, TAB, LF, CR]) CHARACTER_CLASSES[code] = WHITESPACE;

/** Beyond ASCII, or NaN past the end of the text, a character is none of these. */
function isA(kind: number, code: number): boolean {
  return code < 128 && (CHARACTER_CLASSES[code] & kind) !== 0;
}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';
const DECLINED = -1;
const NO_COLON = -1;
const NO_ATTRIBUTES: Readonly<Record<string, ElementAttribute>> = Object.freeze({});
const ENCODING_NAME = /^[A-Za-z][A-Za-z0-9._-]*$/;
/** The pseudo-attributes of an XML declaration may come in this order only, version first. */
const DECLARATION_NAMES = ['version', 'encoding', 'standalone'];

/** An attribute of the start tag being read, before its prefix is resolved. */
interface PendingAttribute {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  readonly value: string;
}

/** One read of a text without '&', '<!' or "Header" (see leftToSaxes). */
class CommonEnvelopeReading {
  private readonly envelope: EnvelopeReading;
  /** The qualified names of the open elements, the root first. */
  private readonly openNames: string[] = [];
  /** The namespace bindings in scope, innermost last ('' the default namespace). */
  private readonly prefixes: string[] = [];
  private readonly uris: string[] = [];
  /** Where each open element's own bindings begin in prefixes and uris. */
  private readonly scopeStarts: number[] = [];
  private attributes: PendingAttribute[] = [];
  /** Where the last qualified name read has its colon, or NO_COLON. */
  private colon = NO_COLON;

  constructor(
    private readonly text: string,
    budget: XmlBudget,
  ) {
    this.envelope = new EnvelopeReading(text, budget);
  }

  read(): ReadResult | undefined {
    const { text } = this;
    let position = text.startsWith('<?xml') ? this.xmlDeclaration() : 0;
    if (position === DECLINED) return undefined;
    position = this.skipWhitespace(position);
    if (text.charCodeAt(position) !== LESS_THAN) return undefined;
    for (;;) {
      position = text.charCodeAt(position + 1) === SLASH ? this.endTag(position) : this.startTag(position);
      if (position === DECLINED) return undefined;
      if (this.openNames.length === 0) break;
      position = this.characterData(position);
      if (position === DECLINED) return undefined;
    }
    return this.skipWhitespace(position) === text.length ? this.envelope.result() : undefined;
  }

  /** `<?xml version="1.0" ...?>` at the start; the position after it. */
  private xmlDeclaration(): number {
    const { text } = this;
    let position = '<?xml'.length;
    let expected = 0;
    for (;;) {
      const beforeSpace = position;
      position = this.skipWhitespace(position);
      if (text.charCodeAt(position) === QUESTION_MARK) {
        return expected > 0 && text.charCodeAt(position + 1) === GREATER_THAN ? position + 2 : DECLINED;
      }
      if (position === beforeSpace) return DECLINED;
      let nameEnd = position;
      while (text.charCodeAt(nameEnd) >= 0x61 && text.charCodeAt(nameEnd) <= 0x7a) nameEnd += 1;
      const index = DECLARATION_NAMES.indexOf(text.slice(position, nameEnd), expected);
      if (index === -1 || (expected === 0 && index !== 0)) return DECLINED;
      position = this.skipWhitespace(nameEnd);
      if (text.charCodeAt(position) !== EQUALS) return DECLINED;
      position = this.skipWhitespace(position + 1);
      const quote = text.charCodeAt(position);
      if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return DECLINED;
      const valueEnd = text.indexOf(String.fromCharCode(quote), position + 1);
      if (valueEnd === -1) return DECLINED;
      const value = text.slice(position + 1, valueEnd);
      const valid =
        index === 0 ? value === '1.0' : index === 1 ? ENCODING_NAME.test(value) : value === 'yes' || value === 'no';
      if (!valid) return DECLINED;
      expected = index + 1;
      position = valueEnd + 1;
    }
  }

  /** A start tag at `lessThan`, with its attributes; the position after it. */
  private startTag(lessThan: number): number {
    const { text } = this;
    const nameEnd = this.qualifiedName(lessThan + 1);
    if (nameEnd === DECLINED) return DECLINED;
    const colon = this.colon;
    this.envelope.openTagStart(nameEnd + 1);
    this.scopeStarts.push(this.prefixes.length);
    if (this.attributes.length > 0) this.attributes = [];
    let position = nameEnd;
    let selfClosing = false;
    for (;;) {
      const code = text.charCodeAt(position);
      if (code === GREATER_THAN) break;
      if (code === SLASH) {
        if (text.charCodeAt(position + 1) !== GREATER_THAN) return DECLINED;
        selfClosing = true;
        position += 1;
        break;
      }
      // Attributes are separated from the name and from each other by whitespace.
      if (!isA(WHITESPACE, code)) return DECLINED;
      position = this.skipWhitespace(position + 1);
      if (isA(NAME_START, text.charCodeAt(position))) {
        position = this.attribute(position);
        if (position === DECLINED) return DECLINED;
      }
    }
    const name = text.slice(lessThan + 1, nameEnd);
    const prefix = colon === NO_COLON ? '' : text.slice(lessThan + 1, colon);
    const uri = this.resolve(prefix) ?? (prefix === '' ? '' : undefined);
    if (uri === undefined || prefix === 'xmlns') return DECLINED;
    const attributes = this.resolvedAttributes();
    if (attributes === undefined) return DECLINED;
    this.openNames.push(name);
    this.envelope.openTag({ local: colon === NO_COLON ? name : text.slice(colon + 1, nameEnd), uri, attributes });
    if (selfClosing) this.closeElement(position + 1);
    return position + 1;
  }

  /** An attribute at `start`; the position after its closing quote. */
  private attribute(start: number): number {
    const { text } = this;
    const nameEnd = this.qualifiedName(start);
    if (nameEnd === DECLINED) return DECLINED;
    const colon = this.colon;
    let position = this.skipWhitespace(nameEnd);
    if (text.charCodeAt(position) !== EQUALS) return DECLINED;
    position = this.skipWhitespace(position + 1);
    const quote = text.charCodeAt(position);
    if (quote !== DOUBLE_QUOTE && quote !== SINGLE_QUOTE) return DECLINED;
    const valueStart = position + 1;
    let normalise = false;
    for (position = valueStart; ; ) {
      const code = text.charCodeAt(position);
      if (code === quote) break;
      if (code === LESS_THAN) return DECLINED;
      if (code < SPACE) normalise = true;
      position = this.afterCharacter(position, code);
      if (position === DECLINED) return DECLINED;
    }
    const raw = text.slice(valueStart, position);
    // XML's attribute-value normalisation, as saxes makes it: a tab or line break (CRLF one) is a space.
    const value = normalise ? raw.replace(/\r\n|[\t\n\r]/g, ' ') : raw;
    const name = text.slice(start, nameEnd);
    const prefix = colon === NO_COLON ? '' : text.slice(start, colon);
    const local = colon === NO_COLON ? name : text.slice(colon + 1, nameEnd);
    const declaration = name === 'xmlns' || prefix === 'xmlns';
    this.envelope.budget.attribute(declaration);
    if (declaration && !this.declare(prefix === '' ? '' : local, value.trim())) return DECLINED;
    this.attributes.push({ name, prefix, local, value });
    return position + 1;
  }

  /** Binds a prefix ('' the default namespace), within the rules of the reserved names. */
  private declare(prefix: string, uri: string): boolean {
    if (prefix === 'xml' || prefix === 'xmlns' || uri === XML_NAMESPACE || uri === XMLNS_NAMESPACE) return false;
    // XML 1.0 cannot undeclare a prefix, only the default namespace.
    if (prefix !== '' && uri === '') return false;
    this.prefixes.push(prefix);
    this.uris.push(uri);
    return true;
  }

  /** The start tag's attributes by name, their prefixes resolved; undefined for an unbound prefix or a duplicate. */
  private resolvedAttributes(): Readonly<Record<string, ElementAttribute>> | undefined {
    const pending = this.attributes;
    if (pending.length === 0) return NO_ATTRIBUTES;
    const uris: string[] = [];
    // Without a prototype, as saxes makes it: an attribute may be named __proto__.
    const attributes: Record<string, ElementAttribute> = Object.create(null);
    for (let index = 0; index < pending.length; index += 1) {
      const { name, prefix, local, value } = pending[index];
      let uri: string | undefined = name === 'xmlns' ? XMLNS_NAMESPACE : '';
      if (prefix !== '') uri = this.resolve(prefix);
      if (uri === undefined) return undefined;
      for (let other = 0; other < index; other += 1) {
        const earlier = pending[other];
        if (earlier.name === name) return undefined;
        if (prefix !== '' && earlier.prefix !== '' && earlier.local === local && uris[other] === uri) return undefined;
      }
      uris.push(uri);
      attributes[name] = { local, uri, value };
    }
    return attributes;
  }

  /** An end tag at `lessThan`, which must close the innermost open element; the position after it. */
  private endTag(lessThan: number): number {
    const { text } = this;
    if (this.openNames.length === 0) return DECLINED;
    const name = this.openNames[this.openNames.length - 1];
    const nameStart = lessThan + 2;
    if (!text.startsWith(name, nameStart)) return DECLINED;
    const position = this.skipWhitespace(nameStart + name.length);
    if (text.charCodeAt(position) !== GREATER_THAN) return DECLINED;
    this.closeElement(position + 1);
    return position + 1;
  }

  private closeElement(afterTag: number): void {
    this.openNames.pop();
    const scopeStart = this.scopeStarts.pop() as number;
    // Popped rather than cut with `length =`, which V8 makes a call into its runtime.
    while (this.prefixes.length > scopeStart) {
      this.prefixes.pop();
      this.uris.pop();
    }
    this.envelope.closeTag(afterTag);
  }

  /** Text inside the root from `start` to the next '<', handed on with its line breaks normalised. */
  private characterData(start: number): number {
    const { text } = this;
    let carriageReturn = false;
    for (let position = start; position < text.length; ) {
      const code = text.charCodeAt(position);
      if (code === LESS_THAN) {
        if (position > start) {
          const chunk = text.slice(start, position);
          this.envelope.addText(carriageReturn ? chunk.replace(/\r\n?/g, '\n') : chunk);
        }
        return position;
      }
      if (code === CR) carriageReturn = true;
      if (
        code === GREATER_THAN &&
        text.charCodeAt(position - 1) === CLOSING_BRACKET &&
        text.charCodeAt(position - 2) === CLOSING_BRACKET
      ) {
        return DECLINED;
      }
      position = this.afterCharacter(position, code);
      if (position === DECLINED) return DECLINED;
    }
    return DECLINED;
  }

  /** The position after the XML 1.0 character `code` at `position` (a surrogate pair is one), or DECLINED. */
  private afterCharacter(position: number, code: number): number {
    if (code < SPACE) return code === TAB || code === LF || code === CR ? position + 1 : DECLINED;
    if (code < SURROGATES_START || (code >= PRIVATE_USE_START && code <= LAST_CHARACTER)) return position + 1;
    // Only a high surrogate followed by a low one: saxes reads an unpaired high surrogate loosely.
    const next = this.text.charCodeAt(position + 1);
    const paired = code < LOW_SURROGATES_START && next >= LOW_SURROGATES_START && next < PRIVATE_USE_START;
    return paired ? position + 2 : DECLINED;
  }

  /** The end of the qualified name at `start` (its colon in this.colon), or DECLINED. */
  private qualifiedName(start: number): number {
    const { text } = this;
    this.colon = NO_COLON;
    if (!isA(NAME_START, text.charCodeAt(start))) return DECLINED;
    let position = start + 1;
    while (isA(NAME_CHARACTER, text.charCodeAt(position))) position += 1;
    if (text.charCodeAt(position) !== COLON) return position;
    this.colon = position;
    if (!isA(NAME_START, text.charCodeAt(position + 1))) return DECLINED;
    position += 2;
    while (isA(NAME_CHARACTER, text.charCodeAt(position))) position += 1;
    return text.charCodeAt(position) === COLON ? DECLINED : position;
  }

  private resolve(prefix: string): string | undefined {
    for (let index = this.prefixes.length - 1; index >= 0; index -= 1) {
      if (this.prefixes[index] === prefix) return this.uris[index];
    }
    if (prefix === 'xml') return XML_NAMESPACE;
    return prefix === 'xmlns' ? XMLNS_NAMESPACE : undefined;
  }

  private skipWhitespace(start: number): number {
    let position = start;
    while (isA(WHITESPACE, this.text.charCodeAt(position))) position += 1;
    return position;
  }
}

/**
 * Whether the text has what is left to saxes unread, as the reader relies on: a reference ('&'), a
 * comment, CDATA or a DOCTYPE ('<!'), or a Header (any "Header" at all, to look only once). Looking
 * costs a few tens of nanoseconds, and such a body then costs no more than saxes's read alone.
 */
function leftToSaxes(text: string): boolean {
  return text.includes('&') || text.includes('<!') || text.includes('Header');
}

/** The read of a common envelope, exactly as saxes's; undefined when the text is not one. */
export function readCommonEnvelope(text: string, budget = new XmlBudget()): ReadResult | undefined {
  if (leftToSaxes(text)) return undefined;
  try {
    return new CommonEnvelopeReading(text, budget).read();
  } catch (error) {
    if (error instanceof Refusal) return { kind: error.kind };
    throw error;
  }
}
