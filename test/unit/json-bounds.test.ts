import { DEFAULT_REQUEST_BUDGETS } from '../../src/config/request-budgets';
import { jsonBoundsProblem } from '../../src/wire/json-bounds';

/** The JSON budgets count the whole body, skip strings, and stop at the first excess. */
const budgets = { ...DEFAULT_REQUEST_BUDGETS, jsonKeys: 16, jsonItems: 16, jsonDepth: 8 };
const ITEMS = 'Invalid JSON: the body has more than 16 array items.';
const KEYS = 'Invalid JSON: the body has more than 16 keys.';

describe('JSON budgets', () => {
  test.each([
    ['16 items over nested arrays, empty ones counted as the items they are', `[${'[],'.repeat(15)}[ ]]`, undefined],
    ['17 items over two arrays', `{"a":[${'1,'.repeat(8)}1],"b":[${'1,'.repeat(7)}1]}`, ITEMS],
    ['items in strings do not count', `{"a":"${'[1,2,3],'.repeat(100)}"}`, undefined],
    ['16 keys over many objects', `[${'{"k":1},'.repeat(15)}{"k":1}]`, undefined],
    ['17 one-key objects in an array: the 17th item comes before its key', `[${'{"k":1},'.repeat(16)}{"k":1}]`, ITEMS],
    [
      '17 keys in nested objects',
      `{"a":{${Array.from({ length: 16 }, (_, index) => `"k${index}":1`).join(',')}}}`,
      KEYS,
    ],
    ['colons in strings do not count', `{"a":"${':'.repeat(100)}","b\\":":1}`, undefined],
    [
      'nine levels',
      `{"a":${'['.repeat(8)}${']'.repeat(8)}}`,
      'Invalid JSON: objects and arrays nest more than 8 levels deep.',
    ],
  ])('%s', (_name, text, problem) => {
    expect(jsonBoundsProblem(text, budgets)).toBe(problem);
  });
});
