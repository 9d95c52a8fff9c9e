import { isDeepStrictEqual } from 'node:util';
import { readCommonEnvelope } from '../../src/bindings/soap/fast-request-reader';
import { readSoapRequest } from '../../src/bindings/soap/request-reader';
import { readWithSaxes } from '../../src/bindings/soap/saxes-request-reader';
import { envelope11, envelope12, NS, SOAP11_ENV, SOAP12_ENV } from '../support/soap';

/**
 * The fast reader of the common envelope against saxes: whenever it answers, its answer must be
 * saxes's, to the offsets of the nodes; it may only decline (undefined), never refuse. The corpus
 * is the requests the tests and the interop clients send, and single-character mutations of some.
 */

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XSI_XSD = `xmlns:xsi="${XSI}" xmlns:xsd="http://www.w3.org/2001/XMLSchema"`;
const HELLO = `<HelloWorld xmlns="${NS}" />`;
const REPORT_PARAMETERS = '<studentId>12</studentId><studentClass>A1</studentClass>';
const REPORT = `<GenerateReport xmlns="${NS}">${REPORT_PARAMETERS}</GenerateReport>`;

const SPACED_DECLARATION = `<?xml  version = "1.0"  encoding="UTF-8" standalone='yes' ?>`;

/** A compact SOAP 1.1 envelope with the prefix s: more attributes, what comes before the Body, the Body's content. */
const compact = (body: string, attributes = '', beforeBody = ''): string =>
  `<s:Envelope xmlns:s="${SOAP11_ENV}"${attributes}>${beforeBody}<s:Body>${body}</s:Body></s:Envelope>`;

/** Envelopes the fast reader must read itself. */
const COMMON: Readonly<Record<string, string>> = {
  'SOAP 1.1 HelloWorld, as the help page shows it': envelope11(HELLO),
  'SOAP 1.2 HelloWorld, as the help page shows it': envelope12(HELLO),
  'SOAP 1.1 with a parameter': envelope11(
    `<GetStudentInfoById xmlns="${NS}"><StudentId>5</StudentId></GetStudentInfoById>`,
  ),
  'SOAP 1.2 with a bad int followed by another node': envelope12(
    `<GenerateReport xmlns="${NS}"><studentId>x1</studentId>\n<studentClass>A1</studentClass></GenerateReport>`,
  ),
  'a short declaration and prefixed operation element': `<?xml version="1.0"?>${compact(
    `<t:HelloWorld xmlns:t="${NS}"/>`,
  )}`,
  'xsi:type attributes': envelope11(
    `<GenerateReport xmlns="${NS}"><studentId xsi:type="xsd:int">12</studentId>` +
      '<studentClass xsi:type="xsd:string">A1</studentClass></GenerateReport>',
  ),
  'xsi:nil in its spellings': envelope11(
    `<SendNote xmlns="${NS}"><a xsi:nil="true"/><b xsi:nil='1' /><c xsi:nil=" true "></c>` +
      `<d xsi:nil="false">x</d><e i:nil="true" xmlns:i="${XSI}"/><f nil="true"/><g xsi:nil="\ttrue\n"/></SendNote>`,
  ),
  'Arabic text': envelope11(`<AuthCode xmlns="${NS}"><code>مرحبا بالعالم ١٢٣</code><phone>٠٥٥</phone></AuthCode>`),
  'CRLF line breaks and single quotes':
    `<?xml version='1.0' encoding='utf-8'?>\r\n<soap:Envelope xmlns:soap='${SOAP11_ENV}'\r\n` +
    `  xmlns:xsi='${XSI}'>\r\n  <soap:Body>\r\n    <GenerateReport xmlns='${NS}'>\r\n` +
    '      <studentId>1\r\n2</studentId>\r\n      <studentClass>A\r1</studentClass>\r\n' +
    '    </GenerateReport>\r\n  </soap:Body>\r\n</soap:Envelope>\r\n',
  'a declaration with standalone and spaces around =': `${SPACED_DECLARATION}\n${compact(REPORT)}`,
  'no declaration, default namespaces only': `<Envelope xmlns="${SOAP12_ENV}"><Body>${HELLO}</Body></Envelope>`,
  gSOAP:
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP11_ENV}" ` +
    `xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ${XSI_XSD} xmlns:ns1="${NS}"><SOAP-ENV:Body>` +
    '<ns1:GenerateReport><ns1:studentId>7</ns1:studentId><ns1:studentClass>B2</ns1:studentClass>' +
    '</ns1:GenerateReport></SOAP-ENV:Body></SOAP-ENV:Envelope>\n',
  zeep:
    `<soap-env:Envelope xmlns:soap-env="${SOAP11_ENV}"><soap-env:Body><ns0:GetStudentInfoById xmlns:ns0="${NS}">` +
    '<ns0:StudentId>5</ns0:StudentId></ns0:GetStudentInfoById></soap-env:Body></soap-env:Envelope>',
  'PHP SoapClient':
    `<?xml version="1.0" encoding="UTF-8"?>\n<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP12_ENV}" xmlns:ns1="${NS}">` +
    '<SOAP-ENV:Body><ns1:HelloWorld/></SOAP-ENV:Body></SOAP-ENV:Envelope>\n',
  'JAX-WS':
    `<?xml version="1.0" ?><S:Envelope xmlns:S="${SOAP11_ENV}"><S:Body><ns2:AuthCode xmlns:ns2="${NS}">` +
    '<ns2:code>1234</ns2:code><ns2:phone>0555</ns2:phone></ns2:AuthCode></S:Body></S:Envelope>',
  'unqualified parameters, nested elements and mixed text': envelope11(
    `<GenerateReport xmlns="${NS}"><studentId xmlns="">3</studentId>` +
      '<studentClass>A<b>x</b>1<c/>2</studentClass></GenerateReport>',
  ),
  'whitespace in namespace declarations':
    `<s:Envelope xmlns:s=" ${SOAP11_ENV}\t">` + `<s:Body><Op xmlns="\n${NS}\r\n"><a>1</a></Op></s:Body></s:Envelope>`,
  'xml:lang and names with dots, dashes and underscores': compact(
    `<my.op_x-1 xmlns="${NS}"><p_1.a-b __proto__="1">v</p_1.a-b></my.op_x-1>`,
    ' xml:lang="ar"',
  ),
  'characters beyond the BMP': envelope12(
    `<SendNote xmlns="${NS}"><text note="\u{1f600}">مرحبا \u{1f44b}\u{1f3fd}</text><n>\u{10ffff}</n></SendNote>`,
  ),
  'characters that need no escape': envelope11(
    `<AuthCode xmlns="${NS}"><code>a > b ] ]] ' " \u00a0 \ue000 \ufffd</code></AuthCode>`,
  ),
  'a Body in another namespace, and two Bodies': compact(`<Op xmlns="${NS}"/>`, '', '<Body><Op/></Body><s:Body/>'),
  'a root that is no envelope': `<GetStudentInfoById xmlns="${NS}"><StudentId>5</StudentId></GetStudentInfoById>`,
  'a wrong namespace': `<soap:Envelope xmlns:soap="${NS}"><soap:Body>${HELLO}</soap:Body></soap:Envelope>`,
  'end tags with whitespace':
    `<s:Envelope xmlns:s="${SOAP11_ENV}" ><s:Body  ><Op xmlns="${NS}"><a >1]]</a\n><b>2</b ></Op >` +
    '</s:Body\t></s:Envelope\r\n>',
};

/** Envelopes outside what the fast reader handles, which saxes reads (or refuses). */
const UNCOMMON: Readonly<Record<string, string>> = {
  'a SOAP Header': compact(HELLO, '', '<s:Header><x:Trace xmlns:x="urn:trace">1</x:Trace></s:Header>'),
  'an entity reference': envelope11(`<AuthCode xmlns="${NS}"><code>1 &amp; 2</code></AuthCode>`),
  'a character reference in an attribute': compact('<Op xmlns="urn:&#x61;"/>'),
  CDATA: envelope11(`<AuthCode xmlns="${NS}"><code><![CDATA[<1>]]></code></AuthCode>`),
  'a comment': `<!-- hi -->${compact(HELLO)}`,
  'a processing instruction': `<s:Envelope xmlns:s="${SOAP11_ENV}"><?pi x?><s:Body>${HELLO}</s:Body></s:Envelope>`,
  'a DOCTYPE': `<!DOCTYPE s:Envelope>${compact(HELLO)}`,
  'a byte-order mark': `\ufeff${compact(HELLO)}`,
  'a non-ASCII name': envelope11(`<AuthCode xmlns="${NS}"><códe>1</códe></AuthCode>`),
  'XML 1.1': `<?xml version="1.1"?>${compact(HELLO)}`,
  'the xml prefix declared': compact('', ' xmlns:xml="http://www.w3.org/XML/1998/namespace"'),
  'an undeclared prefix': '<s:Envelope><s:Body/></s:Envelope>',
  'a duplicate attribute by expanded name': compact('', ' xmlns:a="u" xmlns:b="u" a:x="1" b:x="2"'),
};

function differences(texts: Iterable<string>): { declined: number; read: number; different: string[] } {
  let declined = 0;
  let read = 0;
  const different: string[] = [];
  for (const text of texts) {
    const fast = readCommonEnvelope(text);
    if (fast === undefined) {
      declined += 1;
      continue;
    }
    read += 1;
    if (!isDeepStrictEqual(fast, readWithSaxes(text))) different.push(text);
  }
  return { declined, read, different };
}

describe('the fast reader of the common envelope', () => {
  test.each(Object.entries(COMMON))('reads %s itself, as saxes does', (_name, text) => {
    const fast = readCommonEnvelope(text);
    expect(fast?.kind).toBe('read');
    expect(fast).toStrictEqual(readWithSaxes(text));
  });

  test('finds what saxes finds: nil, text with its line breaks, and the offsets of the following nodes', () => {
    const text = COMMON['CRLF line breaks and single quotes'];
    const fast = readCommonEnvelope(text);
    const children = fast?.kind === 'read' ? (fast.bodyElement?.children ?? []) : [];
    expect(children.map((child) => [child.localName, child.namespace, child.text, child.nil])).toEqual([
      ['studentId', NS, '1\n2', false],
      ['studentClass', NS, 'A\n1', false],
    ]);
    // Each child's next node: the next child's start tag, then the operation's end tag.
    expect(children.map((child) => text.slice(child.nextNodeOffset - 2, child.nextNodeOffset + 12))).toEqual([
      ' <studentClass',
      '</GenerateRepo',
    ]);
    const nils = readCommonEnvelope(COMMON['xsi:nil in its spellings']);
    expect(nils?.kind === 'read' && nils.bodyElement?.children.map((child) => child.nil)).toEqual([
      true,
      true,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  test.each(Object.entries(UNCOMMON))('leaves %s to saxes', (_name, text) => {
    expect(readCommonEnvelope(text)).toBeUndefined();
    expect(readSoapRequest(text)).toStrictEqual(readWithSaxes(text));
  });

  test.each([
    ['a local name that is no NCName', `<a:1b xmlns:a="${NS}"/>`],
    ['an unpaired surrogate before a character', '<a>\ud800x</a>'],
    ['an unpaired surrogate before the end tag', '<a>\ud800</a>'],
    ['an unpaired low surrogate', '<a>\udc00</a>'],
    ['two high surrogates', '<a>\ud800\ud800</a>'],
    ['two low surrogates', '<a>\udc00\udc00</a>'],
    ['an unpaired surrogate in an attribute', '<a b="\udbff"/>'],
    ['a control character', '<a>\u0001</a>'],
    ['a prefix undeclared in XML 1.0', '<a xmlns:p=" "/>'],
    ['a prefix bound to the xmlns namespace', '<a xmlns:p="http://www.w3.org/2000/xmlns/"/>'],
    ['the default namespace set to the xml namespace', '<a xmlns="http://www.w3.org/XML/1998/namespace"/>'],
    [']]> in text', '<a>x]]>y</a>'],
    ['an element with the xmlns prefix', '<xmlns:a/>'],
  ])('does not accept %s, which is not well-formed', (_name, text) => {
    expect(readCommonEnvelope(text)).toBeUndefined();
  });

  test.each([
    ['too deep', 32, 'too-deep'],
    ['too many attributes', 100, 'too-many-attributes'],
    ['too many namespace declarations', 100, 'too-many-namespaces'],
  ])('reads up to the bound of %s, and refuses beyond it as saxes does', (name, bound, refusal) => {
    const document = (count: number): string => {
      if (name === 'too deep') return `${'<a>'.repeat(count)}${'</a>'.repeat(count)}`;
      const attribute = name === 'too many attributes' ? 'a' : 'xmlns:a';
      const attributes = Array.from({ length: count }, (_, index) => ` ${attribute}${index}="u${index}"`);
      return `<r${attributes.join('')}/>`;
    };
    expect(readCommonEnvelope(document(bound))?.kind).toBe('read');
    expect(readCommonEnvelope(document(bound + 1))).toEqual({ kind: refusal });
    expect(readWithSaxes(document(bound + 1))).toEqual({ kind: refusal });
  });

  test('every single-character deletion, insertion and replacement of some envelopes reads as saxes reads it', () => {
    const inserted = ['<', '>', '&', "'", '"', ']', ':', '/', '=', '\u0000', '\u00a0', '\ud800', ' ', '\t', '\n', '\r'];
    const mutants = function* (text: string): Generator<string> {
      for (let index = 0; index <= text.length; index += 1) {
        const before = text.slice(0, index);
        if (index < text.length) yield before + text.slice(index + 1);
        for (const char of inserted) {
          yield before + char + text.slice(index);
          if (index < text.length) yield before + char + text.slice(index + 1);
        }
      }
    };
    const { declined, read, different } = differences(
      [
        COMMON['xsi:nil in its spellings'],
        COMMON['CRLF line breaks and single quotes'],
        COMMON['a short declaration and prefixed operation element'],
        COMMON['end tags with whitespace'],
        COMMON['characters beyond the BMP'],
      ].flatMap((text) => [...mutants(text)]),
    );
    expect(different).toEqual([]);
    // Both sides were exercised: many mutants are still read, many are left to saxes.
    expect(read).toBeGreaterThan(5000);
    expect(declined).toBeGreaterThan(5000);
  });
});
