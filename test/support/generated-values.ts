import fc from 'fast-check';

/**
 * The values a generated school is written with: texts that a CSV writer must quote or a reader
 * may stumble on (line breaks of every kind, quotes, commas, a BOM inside a value), in Arabic,
 * Japanese and emoji as well as Latin letters, and phone numbers as a school's families write
 * them, national and foreign, each with the form the store is to hold.
 */

/** A text's first fragment: a letter, so that no generated name is empty or blank once trimmed. */
const LEADING = ['Noor', 'Math', 'عبدالرحمن', 'العلوم', 'さくら', '日本語', '😀', '👩🏽‍🏫', 'Élodie'];
const BARE_LINE_BREAKS = ['\n', '\r'];
const FOLLOWING = [...LEADING, ' ', ',', '"', "'", '""', ';', '\uFEFF', '\r\n', ...BARE_LINE_BREAKS];

/** A name or title: one to four fragments, starting and ending with a letter. */
export const textValue: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom(...LEADING),
    fc.array(fc.constantFrom(...FOLLOWING), { maxLength: 3 }),
    fc.constantFrom(...LEADING),
  )
  .map(([first, middle, last]) => `${first}${middle.join('')}${last}`);

/** A phone number as written in users.csv, and what the store is to hold of it. */
export interface GeneratedPhone {
  readonly written: string;
  readonly stored: string;
}

const digits = (count: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: count, maxLength: count });

/** A Saudi mobile number (the tests' DEFAULT_COUNTRY_CODE is 966) in the forms people type: stored in E.164. */
const nationalPhone: fc.Arbitrary<GeneratedPhone> = fc
  .tuple(fc.constantFrom('50', '53', '55', '56'), digits(7), fc.nat(3))
  .map(([prefix, rest, form]) => {
    const number = `${prefix}${rest.join('')}`;
    const written = [
      `0${number}`,
      `0${number.slice(0, 2)} ${number.slice(2, 5)} ${number.slice(5)}`,
      `+966 ${number.slice(0, 2)} ${number.slice(2, 5)} ${number.slice(5)}`,
      `00966${number}`,
    ][form];
    return { written, stored: `+966${number}` };
  });

/**
 * A number of another country written without its country code, `(950) 336 6601`: no number of
 * the school's region, so it is kept as written and never given the region's prefix.
 */
const foreignPhone: fc.Arbitrary<GeneratedPhone> = fc
  .tuple(digits(2), digits(3), digits(4))
  .map(([area, exchange, line]) => {
    const written = `(9${area.join('')}) ${exchange.join('')} ${line.join('')}`;
    return { written, stored: written };
  });

export const phoneValue: fc.Arbitrary<GeneratedPhone | undefined> = fc.option(fc.oneof(nationalPhone, foreignPhone), {
  nil: undefined,
});

/** A property's runs each fill several stores (and sync two): minutes on a busy machine of 2 cores. */
export const PROPERTY_TIMEOUT_MS = 600_000;

/**
 * The options every property runs with: few runs of small schools (FC_RUNS for more), a seed from
 * FC_SEED (and FC_PATH) to replay a failure.
 */
export function propertyRuns(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
  // Shrinking a school means importing it hundreds of times more: the first failure and its seed
  // are reported as they are (FC_SEED and FC_PATH replay it).
  const runs = process.env.FC_RUNS === undefined ? numRuns : Number(process.env.FC_RUNS);
  return { numRuns: runs, seed, path: process.env.FC_PATH, endOnFailure: true };
}
