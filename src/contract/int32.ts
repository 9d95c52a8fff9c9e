/**
 * Parses text the way .NET's XmlConvert.ToInt32 / Int32.Parse do for ASMX: surrounding white
 * space allowed, one optional sign, decimal digits only, within the 32-bit range. The failure
 * reasons are .NET's exception messages, which ASMX puts on the wire.
 */
export type Int32Parse = { ok: true; value: number } | { ok: false; reason: string };

export const INT32_FORMAT_REASON = 'Input string was not in a correct format.';
export const INT32_RANGE_REASON = 'Value was either too large or too small for an Int32.';

const INT32_PATTERN = /^[ \t\r\n]*([+-]?)(\d+)[ \t\r\n]*$/;

export function parseInt32(text: string): Int32Parse {
  const match = INT32_PATTERN.exec(text);
  if (!match) return { ok: false, reason: INT32_FORMAT_REASON };
  const digits = match[2].replace(/^0+(?=\d)/, '');
  const value = Number(match[1] + digits);
  if (digits.length > 10 || value > 2147483647 || value < -2147483648) return { ok: false, reason: INT32_RANGE_REASON };
  return { ok: true, value: value === 0 ? 0 : value };
}
