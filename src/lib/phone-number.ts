/**
 * A phone number in E.164 (+ and 8 to 15 digits), from the forms people type: spaces, dashes,
 * dots and parentheses are ignored (only ASCII spaces: other characters make it no number); +CC…
 * and 00CC… are international; a leading 0 is the national trunk prefix of the default country.
 * Only ASCII digits count. Undefined when the text is not a phone number.
 */
export function normalisePhone(text: string, defaultCountryCode: string): string | undefined {
  const compact = text.trim().replace(/[ \t.\-()]/g, '');
  let digits: string;
  if (/^\+\d+$/.test(compact)) digits = compact.slice(1);
  else if (/^00\d+$/.test(compact)) digits = compact.slice(2);
  else if (/^0\d{7,}$/.test(compact)) digits = defaultCountryCode + compact.slice(1);
  else if (/^\d+$/.test(compact))
    digits = compact.startsWith(defaultCountryCode) ? compact : defaultCountryCode + compact;
  else return undefined;
  // A national number shorter than seven digits is no subscriber number anywhere.
  if (!compact.startsWith('+') && !compact.startsWith('00') && digits.length - defaultCountryCode.length < 7)
    return undefined;
  return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : undefined;
}
