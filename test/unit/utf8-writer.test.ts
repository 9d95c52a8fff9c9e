import { Utf8Writer } from '../../src/wire/utf8-writer';
import { escapeXmlText } from '../../src/wire/xml-escape';

/** What the writer must produce: the escaped text, as Node encodes a string to UTF-8. */
const expected = (text: string) => Buffer.from(escapeXmlText(text), 'utf8');

function written(write: (out: Utf8Writer) => void, initialBytes?: number): Buffer {
  const out = new Utf8Writer(initialBytes);
  write(out);
  return out.takeCopy();
}

/** Deterministic strings mixing ASCII, markup characters, Arabic, emoji and lone surrogates. */
function mixedText(seed: number, length: number): string {
  const pieces = [
    'a',
    'Z',
    '7',
    ' ',
    '&',
    '<',
    '>',
    '"',
    'é',
    'ح',
    'مرض',
    '\u0660',
    '€',
    '😀',
    '\ud83d',
    '\ude00',
    '\r\n',
    '\u2028',
  ];
  let state = seed;
  let text = '';
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648;
    text += pieces[state % pieces.length];
  }
  return text;
}

describe('Utf8Writer', () => {
  test.each([
    ['plain ASCII', 'Mohammed Abdullah'],
    ['markup characters', 'a < b && c > d'],
    ['Arabic', 'محمد عبد الله الشمري'],
    ['a surrogate pair', 'ok 😀'],
    ['a lone high surrogate at the end', 'x\ud83d'],
    ['a lone low surrogate', '\ude00y'],
    ['the empty string', ''],
  ])('text() writes %s as Buffer.from(escaped text) does', (_name, text) => {
    expect(written((out) => out.text(text))).toEqual(expected(text));
  });

  test('text() agrees with Buffer.from on mixed strings of every length, short and long', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = mixedText(seed, seed % 150);
      expect(written((out) => out.text(text), 8)).toEqual(expected(text));
    }
  });

  test('markup() writes text unescaped, ASCII or not, short or long', () => {
    for (const text of ['<a b="c">', 'xmlns="urn:مدرسة"', `<${'x'.repeat(100)}>`, `${'ح'.repeat(70)}&`]) {
      expect(written((out) => out.markup(text), 4)).toEqual(Buffer.from(text, 'utf8'));
    }
  });

  test('raw() copies encoded bytes, and the buffer grows as needed', () => {
    const tag = Buffer.from('<StudentNameAr>');
    const out = new Utf8Writer(4);
    for (let index = 0; index < 1000; index++) out.raw(tag);
    expect(out.takeCopy()).toEqual(Buffer.concat(Array.from({ length: 1000 }, () => tag)));
  });

  test('truncate() forgets what came after a position, and refuses a position not yet written', () => {
    const out = new Utf8Writer();
    out.markup('<a>');
    const mark = out.length;
    out.text('gone');
    out.truncate(mark);
    out.markup('<b />');
    expect(out.takeCopy().toString()).toBe('<a><b />');
    expect(() => out.truncate(out.length + 1)).toThrow(RangeError);
    expect(() => out.truncate(-1)).toThrow(RangeError);
  });
});
