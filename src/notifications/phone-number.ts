/**
 * A phone number in E.164 (+ and 8 to 15 digits), from the forms people type: spaces, dashes,
 * dots and parentheses are ignored; +CC… and 00CC… are international; a leading 0 is the
 * national trunk prefix of the default country. Only ASCII digits count. Undefined when the text
 * is not a phone number.
 */
export function normalisePhone(text: string, defaultCountryCode: string): string | undefined {
  const compact = text.trim().replace(/[\s.\-()]/g, '');
  let digits: string;
  if (/^\+\d+$/.test(compact)) digits = compact.slice(1);
  else if (/^00\d+$/.test(compact)) digits = compact.slice(2);
  else if (/^0\d+$/.test(compact)) digits = defaultCountryCode + compact.slice(1);
  else if (/^\d+$/.test(compact)) digits = compact.startsWith(defaultCountryCode) ? compact : defaultCountryCode + compact;
  else return undefined;
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
}
