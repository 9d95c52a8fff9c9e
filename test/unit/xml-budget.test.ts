import { DEFAULT_REQUEST_BUDGETS, type RequestBudgets } from '../../src/config/request-budgets';
import { readCommonEnvelope } from '../../src/bindings/soap/fast-request-reader';
import { readSoapRequest } from '../../src/bindings/soap/request-reader';
import { readWithSaxes } from '../../src/bindings/soap/saxes-request-reader';
import { XmlBudget } from '../../src/wire/xml-budget';

/**
 * The budgets of a whole XML document, as both readers count them: each reads a document at its
 * budget and refuses one a piece past it, with the same refusal, so a body is answered alike
 * whichever reader takes it.
 */
const SMALL: RequestBudgets = {
  ...DEFAULT_REQUEST_BUDGETS,
  xmlElements: 20,
  xmlAttributes: 120,
  xmlNamespaces: 110,
  xmlDepth: 10,
  xmlTextCharacters: 2000,
};

const cases: [string, (count: number) => string, number, string][] = [
  ['elements', (count) => `<r>${'<e/>'.repeat(count - 1)}</r>`, SMALL.xmlElements, 'too-many-elements'],
  [
    'attributes spread over elements',
    (count) =>
      `<r>${Array.from({ length: count }, (_, index) => `<e a="${index}"/>`).join('')}</r>`
        .replace(/<e/g, '<e')
        .replace('<r>', '<r>'),
    SMALL.xmlAttributes,
    'too-many-attributes-in-document',
  ],
  [
    'namespace declarations spread over elements',
    (count) =>
      `<r>${Array.from({ length: count }, (_, index) => `<e${index % 10} xmlns:p="u${index}"/>`).join('')}</r>`,
    SMALL.xmlNamespaces,
    'too-many-namespaces-in-document',
  ],
  ['depth', (count) => `${'<a>'.repeat(count)}${'</a>'.repeat(count)}`, SMALL.xmlDepth, 'too-deep'],
  ['text', (count) => `<r>${'x'.repeat(count)}</r>`, SMALL.xmlTextCharacters, 'too-much-text'],
];

describe('document budgets, counted alike by both readers', () => {
  test.each(cases)('%s: read at the budget, refused one past it', (_name, document, budget, refusal) => {
    // Attributes and declarations come one an element here, so the elements' budget is set above them.
    const budgets = refusal.includes('in-document') ? { ...SMALL, xmlElements: 1000 } : SMALL;
    const atBudget = document(budget);
    const fast = readCommonEnvelope(atBudget, new XmlBudget(budgets));
    expect(fast?.kind).toBe('read');
    expect(fast).toStrictEqual(readWithSaxes(atBudget, new XmlBudget(budgets)));
    const past = document(budget + 1);
    expect(readCommonEnvelope(past, new XmlBudget(budgets))).toEqual({ kind: refusal });
    expect(readWithSaxes(past, new XmlBudget(budgets))).toEqual({ kind: refusal });
    expect(readSoapRequest(past, budgets)).toEqual({ kind: refusal });
  });

  test('the probe flood is refused at its 1,001st attribute, whichever reader reads it', () => {
    const attributes = Array.from({ length: 99 }, (_, index) => ` a${index}=""`).join('');
    const flood = `<r>${Array.from({ length: 1300 }, (_, index) => `<e${index % 10}${attributes}/>`).join('')}</r>`;
    expect(readSoapRequest(flood)).toEqual({ kind: 'too-many-attributes-in-document' });
    expect(readWithSaxes(flood)).toEqual({ kind: 'too-many-attributes-in-document' });
  });
});
