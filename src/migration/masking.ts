/**
 * Masks the examples a report keeps, as they come from answers about children: every value becomes
 * its first character and its length ("A…(5)"), which still shows whether the two sides differ in
 * form (empty, truncated, another script) without showing whom it is about or what was written of
 * them. Personal by default: only a field known to hold no one's data keeps its value (an
 * identifier, a count, a code; the status; a number of children), as a field the list does not
 * know (a note's text, a mark, a name) may be a child's. Told by the last step of the path.
 */
const NOT_PERSONAL = /(?:Id|ID|id|Ids|Count|Code|code)$/;
/** How the comparison writes a difference in the number of an element's children (path `…/*`). */
const CHILD_COUNT = /^\d+ children$/;
/** Examples are for a reader to recognise the difference, not to hold documents. */
const MAX_EXAMPLE = 200;

function isKnownNotPersonal(path: string, value: string): boolean {
  if (path === '(status)') return true;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '*' ? CHILD_COUNT.test(value) : NOT_PERSONAL.test(last);
}

/** A value of an answer that shows no one's records, as an example: shortened, not masked. */
export function keptExample(value: string): string {
  const characters = [...value];
  return characters.length > MAX_EXAMPLE ? `${characters.slice(0, MAX_EXAMPLE).join('')}…` : value;
}

export function maskedExample(path: string, value: string): string {
  const characters = [...value];
  if (!isKnownNotPersonal(path, value) && characters.length > 0) return `${characters[0]}…(${characters.length})`;
  return keptExample(value);
}
