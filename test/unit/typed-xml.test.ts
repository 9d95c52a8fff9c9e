import type { Field, TypeRef } from '../../src/contract/types';
import { typedDocument } from '../../src/bindings/http/typed-document';
import { COMPACT, writeTypedElement, XSI_XSD_DECLARATIONS, type XmlLayout } from '../../src/wire/typed-xml';
import { Utf8Writer } from '../../src/wire/utf8-writer';

const STRING: TypeRef = { kind: 'primitive', name: 'string' };
const INT: TypeRef = { kind: 'primitive', name: 'int' };
const BOOLEAN: TypeRef = { kind: 'primitive', name: 'boolean' };
const BYTES: TypeRef = { kind: 'primitive', name: 'base64Binary' };

const field = (element: string, type: TypeRef, nillable = false): Field => ({
  element,
  property: element.charAt(0).toLowerCase() + element.slice(1),
  type,
  nillable,
  optional: true,
});

const NOTE: TypeRef = {
  kind: 'record',
  name: 'Note',
  fields: [
    field('NoteId', INT),
    field('Text', STRING, true),
    field('Author', STRING),
    field('Positive', BOOLEAN),
    field('Scan', BYTES),
  ],
};
const NOTES: TypeRef = { kind: 'array', name: 'ArrayOfNote', itemElement: 'Note', itemNillable: true, item: NOTE };

function xml(type: TypeRef, value: unknown, layout: XmlLayout, nillable = false): string {
  const out = new Utf8Writer(8);
  writeTypedElement(out, 'Result', type, value, nillable, layout, 0);
  return out.takeCopy().toString('utf8');
}

describe('typed XML, as XmlSerializer writes it', () => {
  test('fields in schema order; a null nillable field as xsi:nil, a null optional field left out', () => {
    const note = { author: null, text: null, noteId: 3, positive: true, scan: Uint8Array.from([1, 2, 255]) };
    expect(xml(NOTE, note, COMPACT)).toBe(
      '<Result><NoteId>3</NoteId><Text xsi:nil="true" /><Positive>true</Positive><Scan>AQL/</Scan></Result>',
    );
  });

  test('text is escaped and written as UTF-8; an empty string is a self-closing element', () => {
    const note = { noteId: 1, text: 'ممتاز & <جيد>', author: '', positive: false, scan: null };
    expect(xml(NOTE, note, COMPACT)).toBe(
      '<Result><NoteId>1</NoteId><Text>ممتاز &amp; &lt;جيد&gt;</Text><Author /><Positive>false</Positive></Result>',
    );
  });

  test('values on either side of a field left out or written self-closing keep their own tags', () => {
    const NAMES: TypeRef = {
      kind: 'record',
      name: 'Names',
      fields: [field('First', STRING), field('Middle', STRING), field('Last', INT), field('Title', STRING)],
    };
    expect(xml(NAMES, { first: 'Anas', middle: null, last: 7, title: '' }, COMPACT)).toBe(
      '<Result><First>Anas</First><Last>7</Last><Title /></Result>',
    );
    expect(xml(NAMES, { first: '', middle: 'Iyad', last: 0, title: 'Dr' }, COMPACT)).toBe(
      '<Result><First /><Middle>Iyad</Middle><Last>0</Last><Title>Dr</Title></Result>',
    );
  });

  test(
    'a record with nothing to write and an empty list are self-closing; ' + 'a null result is nil only where nillable',
    () => {
      const blank = { noteId: null, text: undefined, author: null, positive: null, scan: null };
      const NOTHING_NILLABLE: TypeRef = { ...NOTE, fields: NOTE.fields.map((each) => ({ ...each, nillable: false })) };
      expect(xml(NOTHING_NILLABLE, blank, COMPACT)).toBe('<Result />');
      expect(xml(NOTES, [], COMPACT)).toBe('<Result />');
      expect(xml(NOTES, null, COMPACT)).toBe('');
      expect(xml(NOTES, null, COMPACT, true)).toBe('<Result xsi:nil="true" />');
    },
  );

  test('an HTTP document whose root has nothing inside is self-closing, with its declarations', () => {
    expect(typedDocument(NOTES, [], 'urn:x').toString('utf8')).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\r\n<ArrayOfNote ${XSI_XSD_DECLARATIONS} xmlns="urn:x" />`,
    );
    expect(typedDocument(STRING, 'نعم', 'urn:x').toString('utf8')).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="urn:x">نعم</string>',
    );
  });

  test('lists compact for SOAP, and indented by two spaces with CRLF for HTTP documents', () => {
    const notes = [
      { noteId: 1, text: 'a', author: 'T', positive: true, scan: null },
      { noteId: 2, text: null, author: null, positive: false, scan: null },
    ];
    expect(xml(NOTES, notes, COMPACT)).toBe(
      '<Result><Note><NoteId>1</NoteId><Text>a</Text><Author>T</Author><Positive>true</Positive></Note>' +
        '<Note><NoteId>2</NoteId><Text xsi:nil="true" /><Positive>false</Positive></Note></Result>',
    );
    expect(typedDocument(NOTES, notes, 'http://tempuri.org/').toString('utf8')).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        `<ArrayOfNote ${XSI_XSD_DECLARATIONS} xmlns="http://tempuri.org/">`,
        '  <Note>',
        '    <NoteId>1</NoteId>',
        '    <Text>a</Text>',
        '    <Author>T</Author>',
        '    <Positive>true</Positive>',
        '  </Note>',
        '  <Note>',
        '    <NoteId>2</NoteId>',
        '    <Text xsi:nil="true" />',
        '    <Positive>false</Positive>',
        '  </Note>',
        '</ArrayOfNote>',
      ].join('\r\n'),
    );
  });
});
