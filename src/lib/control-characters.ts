/**
 * Text from outside (a bundle's cells and file names, a caller's input) shown on a terminal or
 * written to a log must not reach the terminal as control characters: an escape sequence in a
 * CSV cell could move the cursor, rewrite what was printed, or retitle the window. C0 and C1
 * controls and DEL are written as escapes that JSON reads back (\n, \r, \t, \u001b), so that a log
 * line stays valid JSON and a problem line one line.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeControlCharacters(text: string): string {
  CONTROL.lastIndex = 0;
  if (!CONTROL.test(text)) return text;
  return text.replace(CONTROL, (char) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
