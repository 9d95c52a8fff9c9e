import { type RequestBudgets, readRequestBudgets } from './request-budgets';
import { type Environment, readInteger } from './readers';

/**
 * What one answer compared on the shadow and canary routes may hold, either service's. Depth and
 * each element's attributes and namespace declarations are bounded as a request's are
 * (REQUEST_MAX_DEPTH, REQUEST_MAX_JSON_DEPTH): no answer of the contract nests deeper than a
 * request. Elements (attributes, keys and items with them) are bounded by SHADOW_MAX_ELEMENTS
 * instead of a request's thousand, since a class's attendance for a year holds tens of thousands,
 * and text by LEGACY_MAX_BYTES, which ends the read first. The comparison of two answers compares
 * at most as many pairs of elements.
 */
export function readAnswerBudgets(env: Environment): RequestBudgets {
  const requests = readRequestBudgets(env);
  const elements = readInteger(env, 'SHADOW_MAX_ELEMENTS', 50_000, 1_000, 5_000_000);
  return {
    ...requests,
    xmlElements: elements,
    xmlAttributes: elements,
    xmlNamespaces: elements,
    xmlTextCharacters: Number.MAX_SAFE_INTEGER,
    jsonKeys: elements,
    jsonItems: elements,
  };
}
