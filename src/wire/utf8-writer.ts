import { escapeXmlText } from './xml-escape';

/**
 * Writes a response straight into UTF-8 bytes, for results of tens or hundreds of kilobytes.
 *
 * Such a result used to be built as one string and converted at the end, and the conversion cost
 * more than everything else the service did for it: the string was a rope of thousands of pieces
 * that V8 had to flatten first, and a single Arabic name made all of it two bytes a character,
 * which Node 20 converts slowly. For a class's attendance audit (about 90 KB) building the string
 * and converting it took about 1.4 ms. Here tags are copied as bytes encoded once and values are
 * encoded as they are written, which takes half that.
 */
export class Utf8Writer {
  private bytes: Buffer;
  private written = 0;

  constructor(initialBytes = 16 * 1024) {
    this.bytes = Buffer.allocUnsafe(initialBytes);
  }

  /** How many bytes have been written: a position to come back to with truncate(). */
  get length(): number {
    return this.written;
  }

  /** Forgets what was written after a position, to write something else in its place. */
  truncate(length: number): void {
    if (length < 0 || length > this.written) throw new RangeError(`cannot truncate ${this.written} bytes to ${length}`);
    this.written = length;
  }

  /** Bytes encoded earlier, such as a tag. */
  raw(encoded: Uint8Array): void {
    this.reserve(encoded.length);
    this.bytes.set(encoded, this.written);
    this.written += encoded.length;
  }

  /** Text written as it is, without escaping: markup, numbers, names from the contract. */
  markup(text: string): void {
    const count = text.length;
    this.reserve(count * 3);
    if (count > SHORT) {
      this.written += this.bytes.write(text, this.written, 'utf8');
      return;
    }
    const bytes = this.bytes;
    let at = this.written;
    for (let index = 0; index < count; index++) {
      const code = text.charCodeAt(index);
      if (code >= 0x80) {
        // Not ASCII after all: let Node encode the whole of it.
        this.written += bytes.write(text, this.written, 'utf8');
        return;
      }
      bytes[at++] = code;
    }
    this.written = at;
  }

  /**
   * Text content: &, < and > escaped as .NET's XmlWriter escapes them, the rest encoded as UTF-8.
   * An unpaired surrogate becomes U+FFFD, as Buffer.from(text, 'utf8') makes it. Short values are
   * encoded here, where the JIT keeps the loop cheap; long ones by Node, whose per-call cost is
   * then small against the copying.
   */
  text(text: string): void {
    const count = text.length;
    if (count > SHORT) {
      this.markup(escapeXmlText(text));
      return;
    }
    // Five bytes a character is the most any takes here (& as &amp;).
    this.reserve(count * 5);
    const bytes = this.bytes;
    let at = this.written;
    for (let index = 0; index < count; index++) {
      let code = text.charCodeAt(index);
      if (code < 0x80) {
        if (code === 0x26) {
          bytes[at++] = 0x26; // &amp;
          bytes[at++] = 0x61;
          bytes[at++] = 0x6d;
          bytes[at++] = 0x70;
          bytes[at++] = 0x3b;
        } else if (code === 0x3c || code === 0x3e) {
          bytes[at++] = 0x26; // &lt; or &gt;
          bytes[at++] = code === 0x3c ? 0x6c : 0x67;
          bytes[at++] = 0x74;
          bytes[at++] = 0x3b;
        } else {
          bytes[at++] = code;
        }
      } else if (code < 0x800) {
        bytes[at++] = 0xc0 | (code >> 6);
        bytes[at++] = 0x80 | (code & 0x3f);
      } else {
        if (code >= 0xd800 && code <= 0xdfff) {
          const next = index + 1 < count ? text.charCodeAt(index + 1) : 0;
          if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
            code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
            index++;
            bytes[at++] = 0xf0 | (code >> 18);
            bytes[at++] = 0x80 | ((code >> 12) & 0x3f);
            bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
            bytes[at++] = 0x80 | (code & 0x3f);
            continue;
          }
          code = 0xfffd;
        }
        bytes[at++] = 0xe0 | (code >> 12);
        bytes[at++] = 0x80 | ((code >> 6) & 0x3f);
        bytes[at++] = 0x80 | (code & 0x3f);
      }
    }
    this.written = at;
  }

  /** The bytes written, in a buffer of their own and of their size; then the writer starts again empty. */
  takeCopy(): Buffer {
    const copy = Buffer.allocUnsafe(this.written);
    this.bytes.copy(copy, 0, 0, this.written);
    this.written = 0;
    return copy;
  }

  /** The size of the buffer written into, for a keeper that lets an outgrown writer go (kept-writer.ts). */
  get capacity(): number {
    return this.bytes.length;
  }

  private reserve(count: number): void {
    if (this.written + count <= this.bytes.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.written + count));
    this.bytes.copy(grown, 0, 0, this.written);
    this.bytes = grown;
  }
}

/** Up to this many characters a value is encoded in JavaScript; longer, by Node. */
const SHORT = 64;
