/**
 * Masks personal data in the examples a report keeps: a name, a phone number or a birth date
 * becomes its first letter and its length ("A…(5)"), which still shows whether the two sides
 * differ in form (empty, truncated, another script) without showing whom it is about. Whether a
 * field is personal is told by its name, the last step of its path.
 */
const PERSONAL = /name|phone|mobile|birth|dob|guardian|email|address/i;
/** Examples are for a reader to recognise the difference, not to hold documents. */
const MAX_EXAMPLE = 200;

function isPersonal(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return PERSONAL.test(last);
}

export function maskedExample(path: string, value: string): string {
  const characters = [...value];
  if (isPersonal(path) && characters.length > 0) return `${characters[0]}…(${characters.length})`;
  return characters.length > MAX_EXAMPLE ? `${characters.slice(0, MAX_EXAMPLE).join('')}…` : value;
}
