import { unescape as unescapeQuery } from 'node:querystring';

/**
 * A query string or form body read as ASP.NET reads it into a NameValueCollection: names match in
 * any letter case, a name given twice has its values joined by a comma, and a part without `=`
 * is a value without a name (`?WSDL` is the value "WSDL", where `?WSDL=` is the name "WSDL" with
 * an empty value). The ASMX behaviours that follow from this (discovery queries, parameter names
 * in any case) depend on the difference.
 */
export interface FormField {
  /** The name as the client wrote it first; null for a part without `=`. */
  readonly name: string | null;
  /** The values given under this name (in any case), joined by commas. */
  readonly value: string;
}

function decodePart(text: string): string {
  return unescapeQuery(text.replace(/\+/g, ' '));
}

/** Thrown when a form has more fields than it may: counted as the text is split, so the split stops there. */
export class TooManyFields extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} fields`);
  }
}

export class FormFields {
  private readonly byName = new Map<string | null, { name: string | null; values: string[] }>();

  /** `maxFields` bounds the parts with a name or value; the part past it throws TooManyFields before it is decoded. */
  constructor(text: string, maxFields = Number.POSITIVE_INFINITY) {
    let fields = 0;
    for (let start = 0; start <= text.length; ) {
      let end = text.indexOf('&', start);
      if (end === -1) end = text.length;
      const part = text.slice(start, end);
      start = end + 1;
      if (part === '') continue;
      fields += 1;
      if (fields > maxFields) throw new TooManyFields(maxFields);
      const equals = part.indexOf('=');
      const name = equals === -1 ? null : decodePart(part.slice(0, equals));
      const value = decodePart(equals === -1 ? part : part.slice(equals + 1));
      const key = name === null ? null : name.toLowerCase();
      const entry = this.byName.get(key);
      if (entry) entry.values.push(value);
      else this.byName.set(key, { name, values: [value] });
    }
  }

  /** The value under a name, in any letter case (null: the values without a name); undefined when absent. */
  get(name: string | null): string | undefined {
    return this.byName.get(name === null ? null : name.toLowerCase())?.values.join(',');
  }

  /** Every name with its joined values, in the order the names first appeared. */
  *entries(): IterableIterator<FormField> {
    for (const { name, values } of this.byName.values()) yield { name, value: values.join(',') };
  }
}
