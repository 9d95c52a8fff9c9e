/**
 * The shapes of results as the typed WSDL files declare them, read through node-soap's schema
 * model. Bindings walk these to write XML and JSON, so that a field's name, order, type and
 * nullability come from the WSDL alone.
 */
export type PrimitiveName = 'string' | 'int' | 'double' | 'boolean' | 'date' | 'base64Binary';

export type TypeRef =
  | { readonly kind: 'primitive'; readonly name: PrimitiveName }
  | { readonly kind: 'record'; readonly name: string; readonly fields: readonly Field[] }
  | {
      readonly kind: 'array';
      readonly name: string;
      readonly itemElement: string;
      /** Whether an item may be null (xsi:nil); ASMX declares the items of its arrays nillable. */
      readonly itemNillable: boolean;
      readonly item: TypeRef;
    };

export interface Field {
  /** The element name on the wire (StudentId). */
  readonly element: string;
  /** The property that holds it in a handler's result: the element name with a lower-case first letter. */
  readonly property: string;
  readonly type: TypeRef;
  /** Declared nillable: a null is written as xsi:nil rather than left out. */
  readonly nillable: boolean;
  /** Declared minOccurs="0": a null is left out. */
  readonly optional: boolean;
}

/** The wire name of a value of this type when it stands alone (HTTP GET/POST body element). */
export function documentElementName(type: TypeRef): string {
  return type.name;
}

export function propertyNameOf(element: string): string {
  return element.charAt(0).toLowerCase() + element.slice(1);
}
