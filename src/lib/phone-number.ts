import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';

/**
 * Phone numbers read as libphonenumber reads them, with its full metadata (the minimal metadata
 * checks a number's length only, which takes a foreign number for one of the school's region).
 * The school's region is that of DEFAULT_COUNTRY_CODE, a calling code: its main region (966 -> SA,
 * 1 -> US, 44 -> GB, 7 -> RU), as libphonenumber lists it first.
 */
export function regionOfCallingCode(callingCode: string): CountryCode | undefined {
  const regions = (metadata.country_calling_codes as Record<string, readonly string[] | undefined>)[callingCode];
  const main = regions?.[0];
  return main !== undefined && isSupportedCountry(main) ? main : undefined;
}

/** A text read as a phone number: its E.164 form, and whether that is a valid number. */
export interface PhoneReading {
  readonly number: string;
  readonly valid: boolean;
}

/**
 * A number as people type it (spaces, dashes, dots, parentheses; a national number with or
 * without its trunk prefix; +CC or the region's international prefix), read for the school's
 * region; undefined for text that is no phone number at all. Valid: a national number of that
 * region, or one written with its country code. Not valid: a foreign number written without its
 * country code, a number too short or too long. A number that is not valid is never stored with
 * the school's country code, nor texted: `(950) 336 6601` read for SA is `+9669503366601`, a Saudi
 * number no one has.
 */
export function readPhoneNumber(text: string, callingCode: string): PhoneReading | undefined {
  const region = regionOfCallingCode(callingCode);
  const number = region && parsePhoneNumberFromString(text, region);
  return number ? { number: number.number, valid: number.isValid() } : undefined;
}

/** The number in E.164 when it is a valid one for the school's region (see readPhoneNumber). */
export function phoneNumberE164(text: string, callingCode: string): string | undefined {
  const reading = readPhoneNumber(text, callingCode);
  return reading?.valid ? reading.number : undefined;
}

/** Whether a number is in E.164 (+ and up to 15 digits, no leading 0): the only form a message is sent to. */
export function isE164(text: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(text);
}
