import { lineAndColumn, readSoapRequest } from '../../src/bindings/soap/request-reader';

describe('reading a SOAP request', () => {
  test('finds the envelope, the Body element and its children with their text', () => {
    const result = readSoapRequest(
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><Op xmlns="urn:x">' +
        '<a>1 &amp; 2</a><b><![CDATA[<c>]]></b>' +
        '<n xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/></Op></s:Body></s:Envelope>',
    );
    expect(result.kind).toBe('read');
    if (result.kind !== 'read') return;
    expect([result.rootLocalName, result.rootNamespace, result.hasBody]).toEqual([
      'Envelope',
      'http://schemas.xmlsoap.org/soap/envelope/',
      true,
    ]);
    expect(result.bodyElement?.localName).toBe('Op');
    expect(
      result.bodyElement?.children.map((child) => [child.localName, child.namespace, child.text, child.nil]),
    ).toEqual([
      ['a', 'urn:x', '1 & 2', false],
      ['b', 'urn:x', '<c>', false],
      ['n', 'urn:x', '', true],
    ]);
  });

  test('a Body in another namespace is not the Body', () => {
    const result = readSoapRequest(
      '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><Body><Op/></Body></s:Envelope>',
    );
    expect(result.kind === 'read' && [result.hasBody, result.bodyElement]).toEqual([false, undefined]);
  });

  test.each(['', '<a>', '<a></b>', '<a/><b/>', '<!DOCTYPE a><a/>', '<a>&x;</a>'])('%p is malformed', (text) => {
    expect(readSoapRequest(text)).toEqual({ kind: 'malformed' });
  });
});

describe('line and column of an offset', () => {
  test.each([
    ['abc', 2, 1, 3],
    ['a\nbc', 3, 2, 2],
    ['a\r\nbc', 4, 2, 2],
    ['a\rbc', 3, 2, 2],
  ])('%p at %p is line %p column %p', (text, offset, line, column) => {
    expect(lineAndColumn(text, offset)).toEqual({ line, column });
  });
});
