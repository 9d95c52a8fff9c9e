import { readAnswerBudgets } from '../../src/config/answer-budgets';
import { type Answer, answerDifferences as compareAnswers } from '../../src/migration/answer';
import { OverBudget } from '../../src/migration/infoset';
import { maskedExample } from '../../src/migration/masking';
import { NoiseRegister } from '../../src/migration/noise';

const xml = (body: string, status = 200) => ({
  status,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: Buffer.from(body),
});
const json = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(JSON.stringify(body)),
});

/** The differences of two answers within the default budgets, which every answer here keeps. */
function answerDifferences(local: Answer, legacy: Answer) {
  const found = compareAnswers(local, legacy, readAnswerBudgets({}));
  if (found instanceof OverBudget) throw new Error(`over budget: ${found.reason}`);
  return found;
}

describe('Answers compared as infosets', () => {
  test('prefixes, attribute order, whitespace between elements and the XML declaration do not count', () => {
    const here = xml('<a:R xmlns:a="urn:x" b="1" c="2"><a:S>t</a:S><a:S>u</a:S></a:R>');
    const there = xml('<?xml version="1.0"?>\r\n<R xmlns="urn:x" c="2" b="1">\n  <S>t</S>\n  <S>u</S>\n</R>');
    expect(answerDifferences(here, there)).toEqual([]);
  });

  test('text, element order, structure, attributes, namespaces and status do', () => {
    expect(answerDifferences(xml('<R><S>t</S></R>'), xml('<R><S>T</S></R>'))).toEqual([
      { path: '/R/S', local: 't', legacy: 'T' },
    ]);
    expect(answerDifferences(xml('<R><A/><B/></R>'), xml('<R><B/><A/></R>')).map((d) => d.path)).toEqual([
      '/R/*',
      '/R/*',
    ]);
    expect(answerDifferences(xml('<R><S/></R>'), xml('<R><S/><S/></R>'))).toEqual([
      { path: '/R/*', local: '1 children', legacy: '2 children' },
    ]);
    expect(answerDifferences(xml('<R a="1"/>'), xml('<R a="2"/>'))).toEqual([
      { path: '/R/@a', local: '1', legacy: '2' },
    ]);
    expect(answerDifferences(xml('<R xmlns="urn:a"/>'), xml('<R xmlns="urn:b"/>'))[0].path).toBe('/R');
    expect(answerDifferences(xml('<R/>', 200), xml('<R/>', 500))).toEqual([
      { path: '(status)', local: '200', legacy: '500' },
    ]);
  });

  test('JSON: members in any order, items in order', () => {
    expect(answerDifferences(json({ d: { a: 1, b: [1, 2] } }), json({ d: { b: [1, 2], a: 1 } }))).toEqual([]);
    expect(answerDifferences(json({ d: { b: [1, 2] } }), json({ d: { b: [2, 1] } })).map((d) => d.path)).toEqual([
      '/d/b/*',
      '/d/b/*',
    ]);
  });

  test('a body that is neither is compared as text', () => {
    const text = (body: string) => ({
      status: 500,
      headers: { 'content-type': 'text/plain' },
      body: Buffer.from(body),
    });
    expect(answerDifferences(text('a\r\n'), text('a\r\n'))).toEqual([]);
    expect(answerDifferences(text('a'), text('b'))).toEqual([{ path: '/', local: 'a', legacy: 'b' }]);
  });
});

describe('Noise and masking', () => {
  test('learned paths and SHADOW_IGNORE paths are noise; others are not', () => {
    const noise = new NoiseRegister([{ operation: 'HelloWorld', steps: ['Envelope', '*', 'Stamp'] }]);
    noise.learn('GetStudentInfoById', 'soap11', [{ path: '/Envelope/Body/X/Time', local: '1', legacy: '2' }]);
    expect(noise.isNoise('GetStudentInfoById', 'soap11', '/Envelope/Body/X/Time')).toBe(true);
    expect(noise.isNoise('GetStudentInfoById', 'json', '/Envelope/Body/X/Time')).toBe(false);
    expect(noise.isNoise('HelloWorld', 'json', '/Envelope/Body/Stamp')).toBe(true);
    expect(noise.isNoise('HelloWorld', 'json', '/Envelope/Body/X/Stamp')).toBe(false);
  });

  test('names, phones and birth dates keep their first letter and length', () => {
    expect(maskedExample('/d/StudentName', 'Ahmed')).toBe('A…(5)');
    expect(maskedExample('/R/GuardianPhone', '+966501234567')).toBe('+…(13)');
    expect(maskedExample('/R/BirthDate', '2010-04-01')).toBe('2…(10)');
    expect(maskedExample('/R/ClassId', '12')).toBe('12');
  });

  test('every other value is masked too (a note, a mark, a field no list knows), but ids, counts and codes', () => {
    expect(maskedExample('/d/*/Text', 'Cried after the break')).toBe('C…(21)');
    expect(maskedExample('/R/Score', '17.5')).toBe('1…(4)');
    expect(maskedExample('/R/Remark', 'late')).toBe('l…(4)');
    expect(maskedExample('/d/*', 'a listed remark')).toBe('a…(15)');
    expect(maskedExample('/R/STDid', '42')).toBe('42');
    expect(maskedExample('/R/StudentCount', '31')).toBe('31');
    expect(maskedExample('/R/Code', 'X7')).toBe('X7');
    expect(maskedExample('/R/*', '3 children')).toBe('3 children');
    expect(maskedExample('(status)', '500')).toBe('500');
  });
});
