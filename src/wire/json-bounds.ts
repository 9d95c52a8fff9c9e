import { DEFAULT_REQUEST_BUDGETS, type RequestBudgets } from '../config/request-budgets';

/**
 * The budgets a JSON body must keep before it is parsed: JSON.parse builds whatever it is given,
 * and a megabyte of nesting, of keys or of array items costs far more to build (and to walk
 * after) than any call needs. One pass over the text, skipping strings, counts depth, the keys of
 * every object together and the items of every array together, and stops at the first excess.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** What each open container is: an object, an array with no item yet, or an array with items. */
const OBJECT = 0;
const EMPTY_ARRAY = 1;
const ARRAY = 2;

/** The index of the quote that ends the string opened at `start`, or the text's end. */
function endOfString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function isWhitespace(char: number): boolean {
  return char === SPACE || char === TAB || char === LF || char === CR;
}

/** Why the text is refused, or undefined when it keeps the budgets (it may still not be JSON). */
export function jsonBoundsProblem(text: string, budgets: RequestBudgets = DEFAULT_REQUEST_BUDGETS): string | undefined {
  const { jsonDepth, jsonKeys, jsonItems } = budgets;
  const open: number[] = [];
  let keys = 0;
  let items = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    const top = open.length > 0 ? open[open.length - 1] : OBJECT;
    // The first thing in an array that does not close it is its first item.
    if (top === EMPTY_ARRAY && char !== CLOSE_ARRAY && !isWhitespace(char)) {
      open[open.length - 1] = ARRAY;
      items += 1;
      if (items > jsonItems) return `Invalid JSON: the body has more than ${jsonItems} array items.`;
    }
    if (char === QUOTE) {
      index = endOfString(text, index);
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      if (open.length === jsonDepth) {
        return `Invalid JSON: objects and arrays nest more than ${jsonDepth} levels deep.`;
      }
      open.push(char === OPEN_OBJECT ? OBJECT : EMPTY_ARRAY);
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      open.pop();
    } else if (char === COLON && open.length > 0 && top === OBJECT) {
      // Outside strings, each key of an object has exactly one colon at the object's level.
      keys += 1;
      if (keys > jsonKeys) return `Invalid JSON: the body has more than ${jsonKeys} keys.`;
    } else if (char === COMMA && top === ARRAY) {
      items += 1;
      if (items > jsonItems) return `Invalid JSON: the body has more than ${jsonItems} array items.`;
    }
  }
  return undefined;
}
