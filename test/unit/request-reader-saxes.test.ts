import { readWithSaxes } from '../../src/bindings/soap/saxes-request-reader';
import { SOAP11_ENV } from '../support/soap';

/** saxes's parser is kept from one read to the next when it finished its document. */

const HEADER =
  `<s:Envelope xmlns:s="${SOAP11_ENV}"><s:Header><x:Trace xmlns:x="urn:trace" s:mustUnderstand="1">1</x:Trace>` +
  '</s:Header><s:Body><Op xmlns="urn:op"><a>1</a></Op></s:Body></s:Envelope>';

describe('the saxes reader kept between reads', () => {
  test('reads as a new one after documents it refused', () => {
    const expected = readWithSaxes(HEADER);
    for (const refused of ['<a>', '<a></b>', '<a>&x;</a>', `${'<a>'.repeat(40)}`, '<!DOCTYPE a><a/>', '<a/>x']) {
      expect(readWithSaxes(refused).kind).not.toBe('read');
      expect(readWithSaxes(HEADER)).toStrictEqual(expected);
    }
  });
});
