import type { TypeRef } from '../contract/types';

/**
 * Turns a typed result into the JSON value ASP.NET's script services write: records as objects
 * keyed by the wire's element names in schema order, arrays as arrays, numbers and booleans as
 * such, binary data as base64 text, and nulls as null.
 */
export function toJsonValue(type: TypeRef, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type.kind === 'array') return (value as readonly unknown[]).map((item) => toJsonValue(type.item, item));
  if (type.kind === 'record') {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      type.fields.map((field) => [field.element, toJsonValue(field.type, record[field.property])]),
    );
  }
  switch (type.name) {
    case 'int':
    case 'double':
      return Number(value);
    case 'boolean':
      return Boolean(value);
    case 'base64Binary':
      return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : String(value);
    default:
      return String(value);
  }
}
