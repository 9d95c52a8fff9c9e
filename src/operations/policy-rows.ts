/**
 * What the operations' policy rows share: the bounds of the kinds of text their parameters carry,
 * and the row of a query. Each row is declared with its handler (`defineOperation`).
 */

/** An identifier sent as text: ten digits, with room for spaces and a sign. */
export const IDENTIFIER = 32;
/** A school's base URL. */
export const BASE_URL = 2_048;
/** Text a person writes in a notification; PUSH_NOTES_MAX_LENGTH bounds it further. */
export const NOTES = 100_000;

/** A query: the `queries` group, audited by the records its answer shows, sending nothing. */
export const QUERY = { group: 'queries', audit: 'shown', effect: 'reads' } as const;
