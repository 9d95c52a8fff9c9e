import type { Field, TypeRef } from '../contract/types';
import type { Utf8Writer } from './utf8-writer';

/**
 * Writes a typed result as XML the way ASMX's XmlSerializer does: fields in schema order, a null
 * nillable field as xsi:nil, a null optional field left out, empty values as self-closing
 * elements. SOAP bodies are written compact; HTTP GET/POST documents indented by two spaces with
 * CRLF line breaks, as ASMX writes them. The XML goes straight into UTF-8 bytes (see Utf8Writer).
 */
export interface XmlLayout {
  /** Undefined for compact output; otherwise the line break before each nested element. */
  readonly newline: string | undefined;
}

export const COMPACT: XmlLayout = { newline: undefined };
export const INDENTED: XmlLayout = { newline: '\r\n' };

export const XSI_XSD_DECLARATIONS =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** An element's tags as bytes, encoded once per element name (the names come from the WSDL). */
interface Tags {
  readonly open: Buffer;
  readonly close: Buffer;
  readonly empty: Buffer;
  readonly nil: Buffer;
}

const tagsByName = new Map<string, Tags>();

function tagsOf(name: string): Tags {
  let tags = tagsByName.get(name);
  if (!tags) {
    tags = {
      open: Buffer.from(`<${name}>`),
      close: Buffer.from(`</${name}>`),
      empty: Buffer.from(`<${name} />`),
      nil: Buffer.from(`<${name} xsi:nil="true" />`),
    };
    tagsByName.set(name, tags);
  }
  return tags;
}

/** Line breaks with indentation, by layout and depth: a handful of each. */
const lineStarts = new Map<string, Buffer[]>();

function writeLineStart(out: Utf8Writer, layout: XmlLayout, depth: number): void {
  if (layout.newline === undefined) return;
  let byDepth = lineStarts.get(layout.newline);
  if (!byDepth) {
    byDepth = [];
    lineStarts.set(layout.newline, byDepth);
  }
  byDepth[depth] ??= Buffer.from(layout.newline + '  '.repeat(depth));
  out.raw(byDepth[depth]);
}

/** A primitive value's text: numbers and booleans as XmlSerializer writes them, strings escaped. */
export function writePrimitive(out: Utf8Writer, type: TypeRef, value: unknown): void {
  if (type.kind !== 'primitive') throw new TypeError(`${type.name} is not a primitive`);
  if (type.name === 'base64Binary')
    out.markup(value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value));
  else if (type.name === 'boolean') out.markup(value ? 'true' : 'false');
  else if (typeof value === 'number') out.markup(String(value));
  else out.text(String(value));
}

/** The content of an element of this type: text for a primitive, child elements otherwise. */
export function writeTypedContent(
  out: Utf8Writer,
  type: TypeRef,
  value: unknown,
  layout: XmlLayout,
  depth: number,
): void {
  if (type.kind === 'primitive') {
    writePrimitive(out, type, value);
    return;
  }
  const start = out.length;
  if (type.kind === 'array') {
    const tags = tagsOf(type.itemElement);
    for (const item of value as readonly unknown[])
      writeElement(out, tags, type.item, item, type.itemNillable, layout, depth + 1);
  } else if (layout.newline === undefined) {
    writeCompactFields(out, fieldsOf(type), value as Record<string, unknown>, depth);
  } else {
    const record = value as Record<string, unknown>;
    for (const field of fieldsOf(type))
      writeElement(out, field.tags, field.type, record[field.property], field.nillable, layout, depth + 1);
  }
  if (out.length > start) writeLineStart(out, layout, depth);
}

/**
 * A record's fields, compact. A number or a non-empty string is written straight through, and
 * when the field before it was too, its closing tag and this field's opening tag are copied as
 * one piece: records of a dozen such fields are most of a large result, and this halves the
 * copies of tags, each of which costs more than the few bytes it moves.
 */
function writeCompactFields(
  out: Utf8Writer,
  fields: readonly FieldPlan[],
  record: Record<string, unknown>,
  depth: number,
): void {
  // Whether the field before this one was written straight through and is not yet closed.
  let open = false;
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index];
    const value = record[field.property];
    const direct = field.direct && (typeof value === 'number' || (typeof value === 'string' && value !== ''));
    if (!direct) {
      if (open) out.raw(fields[index - 1].tags.close);
      open = false;
      writeElement(out, field.tags, field.type, value, field.nillable, COMPACT, depth + 1);
      continue;
    }
    out.raw(open ? fields[index - 1].closeThenNextOpen : field.tags.open);
    if (typeof value === 'number') out.markup(String(value));
    else out.text(value as string);
    open = true;
  }
  if (open) out.raw(fields[fields.length - 1].tags.close);
}

/** One element: `<name>content</name>`, `<name />` when empty, xsi:nil or nothing when null. */
export function writeTypedElement(
  out: Utf8Writer,
  name: string,
  type: TypeRef,
  value: unknown,
  nillable: boolean,
  layout: XmlLayout,
  depth: number,
): void {
  writeElement(out, tagsOf(name), type, value, nillable, layout, depth);
}

/** A record's field with what writing it needs, worked out once per type rather than once per value. */
interface FieldPlan extends Field {
  readonly tags: Tags;
  /** A primitive whose numbers and strings are written as they are (not a boolean or bytes). */
  readonly direct: boolean;
  /** This field's closing tag and the next field's opening tag, as one piece. */
  readonly closeThenNextOpen: Buffer;
}

const fieldsByType = new WeakMap<TypeRef, readonly FieldPlan[]>();

function fieldsOf(type: Extract<TypeRef, { kind: 'record' }>): readonly FieldPlan[] {
  let fields = fieldsByType.get(type);
  if (!fields) {
    fields = type.fields.map((field, index) => {
      const tags = tagsOf(field.element);
      const next = type.fields[index + 1];
      return {
        ...field,
        tags,
        direct: isDirect(field.type),
        closeThenNextOpen: next ? Buffer.concat([tags.close, tagsOf(next.element).open]) : tags.close,
      };
    });
    fieldsByType.set(type, fields);
  }
  return fields;
}

const isDirect = (type: TypeRef) =>
  type.kind === 'primitive' && type.name !== 'boolean' && type.name !== 'base64Binary';

function writeElement(
  out: Utf8Writer,
  tags: Tags,
  type: TypeRef,
  value: unknown,
  nillable: boolean,
  layout: XmlLayout,
  depth: number,
): void {
  if (value === null || value === undefined) {
    if (!nillable) return;
    writeLineStart(out, layout, depth);
    out.raw(tags.nil);
    return;
  }
  writeLineStart(out, layout, depth);
  // Numbers and strings, most of any result, go straight through: a number is never empty, and
  // a string is empty exactly when it is ''.
  if (isDirect(type)) {
    if (typeof value === 'number') {
      out.raw(tags.open);
      // V8 keeps the strings of recently written numbers: String() is cheaper than writing digits.
      out.markup(String(value));
      out.raw(tags.close);
      return;
    }
    if (typeof value === 'string') {
      if (value === '') {
        out.raw(tags.empty);
        return;
      }
      out.raw(tags.open);
      out.text(value);
      out.raw(tags.close);
      return;
    }
  }
  const tagStart = out.length;
  out.raw(tags.open);
  const contentStart = out.length;
  writeTypedContent(out, type, value, layout, depth);
  if (out.length > contentStart) {
    out.raw(tags.close);
  } else {
    // Nothing inside: the element is written self-closing instead.
    out.truncate(tagStart);
    out.raw(tags.empty);
  }
}
