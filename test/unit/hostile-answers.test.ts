import { readAnswerBudgets } from '../../src/config/answer-budgets';
import { type Answer, answerDifferences } from '../../src/migration/answer';
import { OverBudget, xmlInfoset } from '../../src/migration/infoset';
import { differences } from '../../src/migration/infoset-differences';

const budgets = readAnswerBudgets({});
const xml = (body: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'text/xml; charset=utf-8' },
  body: Buffer.from(body),
});
const json = (body: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: Buffer.from(body),
});
const PLAIN = xml('<R><HelloWorldResult>Hello World</HelloWorldResult></R>');

/** The comparison's result and what it cost, in milliseconds (the best of five, so a busy core does not decide). */
function timed(legacy: Answer) {
  let best = Number.POSITIVE_INFINITY;
  let result: ReturnType<typeof answerDifferences> = [];
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    result = answerDifferences(PLAIN, legacy, budgets);
    best = Math.min(best, performance.now() - started);
  }
  return { result, ms: best };
}

describe('A hostile legacy answer costs little', () => {
  test.each([
    ['nested 20,000 deep', xml(`${'<a>'.repeat(20_000)}x${'</a>'.repeat(20_000)}`)],
    ['5,000 attributes on one element', xml(`<R ${Array.from({ length: 5_000 }, (_, i) => `a${i}="1"`).join(' ')}/>`)],
    [
      '5,000 namespace declarations',
      xml(`<R ${Array.from({ length: 5_000 }, (_, i) => `xmlns:p${i}="u:${i}"`).join(' ')}/>`),
    ],
    ['JSON nested 20,000 deep', json(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)],
    ['JSON with 60,000 keys', json(`{${Array.from({ length: 60_000 }, (_, i) => `"k${i}":1`).join(',')}}`)],
  ])('%s: over budget, under 50 ms', (_name, legacy) => {
    const { result, ms } = timed(legacy);
    expect(result).toBeInstanceOf(OverBudget);
    expect(ms).toBeLessThan(50);
  });

  test('answers that differ everywhere list their differences up to a bound', () => {
    const names = (value: string) =>
      xml(`<R>${Array.from({ length: 5_000 }, (_, i) => `<n${i}>${value}</n${i}>`).join('')}</R>`);
    const found = answerDifferences(names('a'), names('b'), budgets);
    expect(Array.isArray(found) && found.length).toBe(50);
  });

  test('an answer as deep as the budget allows is compared without recursion, its path built where it differs', () => {
    const depth = budgets.xmlDepth;
    const deep = (leaf: string) => xml(`${'<a>'.repeat(depth)}${leaf}${'</a>'.repeat(depth)}`);
    const found = answerDifferences(deep('x'), deep('y'), budgets);
    expect(found).toEqual([{ path: '/a'.repeat(depth), local: 'x', legacy: 'y' }]);
    expect(
      answerDifferences(deep('x'), xml(`${'<a>'.repeat(depth + 1)}x${'</a>'.repeat(depth + 1)}`), budgets),
    ).toBeInstanceOf(OverBudget);
  });

  test('the comparison compares at most the pairs it is given, then is over budget', () => {
    const list = xmlInfoset(`<R>${'<S>t</S>'.repeat(100)}</R>`, budgets);
    if (!list || list instanceof OverBudget) throw new Error('the list should read');
    expect(differences(list, list, 101)).toEqual([]);
    expect(differences(list, list, 100)).toBeInstanceOf(OverBudget);
  });

  test('past SHADOW_MAX_ELEMENTS elements an answer is over budget; within it, compared', () => {
    const small = readAnswerBudgets({ SHADOW_MAX_ELEMENTS: '1000' });
    const items = (count: number) => xml(`<R>${'<S>t</S>'.repeat(count)}</R>`);
    expect(answerDifferences(items(999), items(999), small)).toEqual([]);
    expect(answerDifferences(items(1_000), items(1_000), small)).toBeInstanceOf(OverBudget);
  });
});
