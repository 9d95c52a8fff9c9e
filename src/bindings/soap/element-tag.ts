/**
 * What the request reader needs of an element once its start tag is read: its resolved name and
 * its attributes by qualified name. saxes's SaxesTagNS is one; the fast reader makes its own, so
 * that the envelope is followed by one piece of code whichever parser read it.
 */

export interface ElementAttribute {
  readonly local: string;
  readonly uri: string;
  /** The value after XML's attribute-value normalisation (a tab or line break is a space). */
  readonly value: string;
}

export interface ElementTag {
  readonly local: string;
  readonly uri: string;
  readonly attributes: Readonly<Record<string, ElementAttribute>>;
}
