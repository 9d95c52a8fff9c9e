/**
 * The bounds a JSON body must keep before it is parsed: JSON.parse builds whatever it is given,
 * and a megabyte of nesting or of properties in one object costs far more to build (and to walk
 * after) than any call needs. One pass over the text, skipping strings, finds either.
 */
export const MAX_JSON_DEPTH = 32;
export const MAX_JSON_PROPERTIES = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

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

/** Why the text is refused, or undefined when it keeps the bounds (it may still not be JSON). */
export function jsonBoundsProblem(text: string): string | undefined {
  // One entry per open object (its properties so far) or array (-1).
  const open: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (char === QUOTE) {
      index = endOfString(text, index);
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      if (open.length === MAX_JSON_DEPTH) {
        return `Invalid JSON: objects and arrays nest more than ${MAX_JSON_DEPTH} levels deep.`;
      }
      open.push(char === OPEN_OBJECT ? 0 : -1);
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      open.pop();
    } else if (char === COLON && open.length > 0 && open[open.length - 1] >= 0) {
      // Outside strings, each property of an object has exactly one colon at the object's level.
      open[open.length - 1] += 1;
      if (open[open.length - 1] > MAX_JSON_PROPERTIES) {
        return `Invalid JSON: an object has more than ${MAX_JSON_PROPERTIES} properties.`;
      }
    }
  }
  return undefined;
}
