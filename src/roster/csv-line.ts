/**
 * A field is quoted when it holds a quote, a comma or a line break of either kind: a CR or an LF
 * alone ends a record for CSV readers as CRLF does (this service's reader among them), so a title
 * or an address holding one would otherwise come back cut in two. Every CSV file the service
 * writes (export, the sync's spooled bundle, records read as a bundle) goes through here, so that
 * they share this one rule.
 */
const NEEDS_QUOTES = /[",\r\n]/;

/** One field as RFC 4180 writes it: quoted when it must be, its quotes doubled. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A record's fields joined by commas, ended by `ending` (CRLF as SIS exports write it, or LF). */
export function csvLine(values: readonly string[], ending: '\r\n' | '\n'): string {
  let line = '';
  for (let index = 0; index < values.length; index += 1) {
    if (index > 0) line += ',';
    line += csvField(values[index]);
  }
  return line + ending;
}
