import { type Environment, readInteger } from './readers';

/**
 * What one request's document may hold, whatever its shape, counted while it is read so that the
 * read stops at the first excess. The per-element bounds of XML (attributes and namespace
 * declarations of one element) were not enough: a megabyte of elements that each keep them cost
 * as much CPU as no bound at all. The defaults are far above what any call of the service sends
 * (a SOAP call has a few dozen elements; a form or JSON body a handful of parameters) and keep
 * the cost of any body within a few times that of reading a plain one of the same size.
 */
export interface RequestBudgets {
  /** XML: elements in the document. */
  readonly xmlElements: number;
  /** XML: attributes in the document, namespace declarations not counted. */
  readonly xmlAttributes: number;
  /** XML: namespace declarations in the document. */
  readonly xmlNamespaces: number;
  /** XML: how deep elements nest. */
  readonly xmlDepth: number;
  /** XML: characters of text (character data) in the document. */
  readonly xmlTextCharacters: number;
  /** HTTP GET and POST: fields of the query or form (ASP.NET's MaxHttpCollectionKeys is 1,000). */
  readonly formFields: number;
  /** HTTP GET and POST: characters of the query or form, as sent (percent-encoded). */
  readonly formCharacters: number;
  /** JSON: how deep objects and arrays nest. */
  readonly jsonDepth: number;
  /** JSON: keys of every object in the body together (ASP.NET's MaxJsonDeserializerMembers is 1,000). */
  readonly jsonKeys: number;
  /** JSON: items of every array in the body together. */
  readonly jsonItems: number;
}

/** The bounds each element of an XML document keeps on its own, within the document's budgets. */
export const MAX_ATTRIBUTES_PER_ELEMENT = 100;
export const MAX_NAMESPACES_PER_ELEMENT = 100;

export const DEFAULT_REQUEST_BUDGETS: RequestBudgets = {
  xmlElements: 1_000,
  xmlAttributes: 1_000,
  xmlNamespaces: 200,
  xmlDepth: 32,
  // PushNotificationToGateway's notes may be 100,000 characters.
  xmlTextCharacters: 262_144,
  formFields: 1_000,
  formCharacters: 524_288,
  jsonDepth: 32,
  jsonKeys: 1_000,
  jsonItems: 1_000,
};

export function readRequestBudgets(env: Environment): RequestBudgets {
  const d = DEFAULT_REQUEST_BUDGETS;
  return {
    xmlElements: readInteger(env, 'REQUEST_MAX_ELEMENTS', d.xmlElements, 16, 1_000_000),
    xmlAttributes: readInteger(env, 'REQUEST_MAX_ATTRIBUTES', d.xmlAttributes, MAX_ATTRIBUTES_PER_ELEMENT, 1_000_000),
    xmlNamespaces: readInteger(env, 'REQUEST_MAX_NAMESPACES', d.xmlNamespaces, MAX_NAMESPACES_PER_ELEMENT, 1_000_000),
    xmlDepth: readInteger(env, 'REQUEST_MAX_DEPTH', d.xmlDepth, 8, 256),
    xmlTextCharacters: readInteger(env, 'REQUEST_MAX_TEXT_CHARACTERS', d.xmlTextCharacters, 1_024, 1_073_741_824),
    formFields: readInteger(env, 'REQUEST_MAX_FORM_FIELDS', d.formFields, 16, 1_000_000),
    formCharacters: readInteger(env, 'REQUEST_MAX_FORM_CHARACTERS', d.formCharacters, 1_024, 1_073_741_824),
    jsonDepth: readInteger(env, 'REQUEST_MAX_JSON_DEPTH', d.jsonDepth, 8, 256),
    jsonKeys: readInteger(env, 'REQUEST_MAX_JSON_KEYS', d.jsonKeys, 16, 1_000_000),
    jsonItems: readInteger(env, 'REQUEST_MAX_JSON_ITEMS', d.jsonItems, 16, 1_000_000),
  };
}
