import { escapeHtml } from '../../wire/html-escape';
import type { FormFields } from '../../wire/form-fields';

/**
 * ASP.NET's request validation, which runs on the query (HTTP GET) or the form (HTTP POST) before
 * an ASMX method sees either: a value that looks like markup (`<` then a letter, `!`, `/` or `?`)
 * or like a character reference (`&#`) refuses the whole request. SOAP bodies are not validated.
 */

export type ValidatedCollection = 'Request.QueryString' | 'Request.Form';

/** Markup or a character reference, as ASP.NET's CrossSiteScriptingValidation finds them (A-Z only). */
const DANGEROUS = /<[A-Za-z!/?]|&#/;

/**
 * The piece of the value ASP.NET shows: from 10 characters before the match to 20 after it,
 * with "..." where it was cut.
 */
function shownPiece(name: string | null, value: string, index: number): string {
  const start = Math.max(0, index - 10);
  const end = Math.min(value.length, index + 20);
  const before = start > 0 ? '...' : '';
  const after = end < value.length ? '...' : '';
  return `${name ?? ''}="${before}${value.slice(start, end)}${after}"`;
}

/**
 * ASP.NET's message for the first dangerous value, HTML-encoded as ASMX writes its errors;
 * undefined when every value passes. Names starting with "__" (ASP.NET's own fields) and empty
 * values are not validated, and NUL characters are dropped first, as ASP.NET does.
 */
export function requestValidationFailure(fields: FormFields, collection: ValidatedCollection): string | undefined {
  for (const { name, value: raw } of fields.entries()) {
    if (name?.startsWith('__')) continue;
    const value = raw.replace(/\0/g, '');
    const index = value.search(DANGEROUS);
    if (index === -1) continue;
    const detected = escapeHtml(shownPiece(name, value, index));
    return `A potentially dangerous ${collection} value was detected from the client (${detected}).`;
  }
  return undefined;
}
