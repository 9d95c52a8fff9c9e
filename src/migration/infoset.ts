import { SaxesParser } from 'saxes';
import type { RequestBudgets } from '../config/request-budgets';
import { jsonBoundsProblem } from '../wire/json-bounds';
import { Refusal, XmlBudget } from '../wire/xml-budget';

/**
 * An answer as the comparison sees it: elements by namespace and local name, their attributes
 * (without namespace declarations), their text and their children in order. Prefixes, attribute
 * order, whitespace between elements and the XML declaration are not in it, so two answers that
 * differ only there are the same infoset. JSON answers take the same shape: an object's members
 * are children by name (in name order: JSON members have none), an array's items children named '*'.
 */
export interface InfoNode {
  readonly name: string;
  readonly namespace: string;
  readonly attributes: ReadonlyMap<string, string>;
  text: string;
  readonly children: InfoNode[];
}

/**
 * An answer that holds more than an answer may (see answerBudgets): it is not built, and so not
 * compared. A legacy service that answers 20,000 levels deep costs the read up to the first excess.
 */
export class OverBudget {
  constructor(readonly reason: string) {}
}

function node(name: string, namespace = ''): InfoNode {
  return { name, namespace, attributes: new Map(), text: '', children: [] };
}

/**
 * The XML document's root, undefined when the text is not well-formed XML (or has a DOCTYPE), or
 * OverBudget at the first excess of `budgets` (counted as a request's are, while it is read).
 */
export function xmlInfoset(text: string, budgets: RequestBudgets): InfoNode | OverBudget | undefined {
  const parser = new SaxesParser({ xmlns: true });
  const budget = new XmlBudget(budgets);
  const open: InfoNode[] = [];
  let root: InfoNode | undefined;
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('doctype', () => {
    failed = true;
  });
  // Counted before saxes gathers the tag: it compares each attribute with the tag's others.
  parser.on('opentagstart', () => {
    budget.element();
    budget.depth(open.length + 1);
  });
  parser.on('attribute', (attribute) => budget.attribute(attribute.name === 'xmlns' || attribute.prefix === 'xmlns'));
  parser.on('opentag', (tag) => {
    const element = node(tag.local ?? tag.name, tag.uri ?? '');
    for (const attribute of Object.values(tag.attributes)) {
      if (typeof attribute === 'string') continue;
      if (attribute.prefix === 'xmlns' || attribute.name === 'xmlns') continue;
      const key = attribute.uri ? `{${attribute.uri}}${attribute.local}` : attribute.local;
      (element.attributes as Map<string, string>).set(key, attribute.value);
    }
    const parent = open.at(-1);
    if (parent) parent.children.push(element);
    else root ??= element;
    open.push(element);
  });
  const addText = (value: string) => {
    budget.text(value.length);
    const current = open.at(-1);
    if (current) current.text += value;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const element = open.pop();
    // Whitespace between child elements is layout, not content.
    if (element && element.children.length > 0 && element.text.trim() === '') element.text = '';
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error instanceof Refusal) return new OverBudget(error.kind);
    return undefined;
  }
  return failed ? undefined : root;
}

/** A parsed JSON value as an infoset; its depth is bounded by the budget checked before parsing. */
function fromJson(name: string, value: unknown): InfoNode {
  const element = node(name);
  if (Array.isArray(value)) {
    for (const item of value) element.children.push(fromJson('*', item));
  } else if (value !== null && typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [member, inner] of members) element.children.push(fromJson(member, inner));
  } else {
    element.text = value === null ? 'null' : typeof value === 'string' ? value : JSON.stringify(value);
  }
  return element;
}

/**
 * The JSON document as an infoset under a root named '', undefined when it is not JSON, or
 * OverBudget when it nests, or holds keys or items, past `budgets` (counted before it is parsed).
 */
export function jsonInfoset(text: string, budgets: RequestBudgets): InfoNode | OverBudget | undefined {
  const problem = jsonBoundsProblem(text, budgets);
  if (problem !== undefined) return new OverBudget(problem);
  try {
    return fromJson('', JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** An answer that is neither XML nor JSON (ASMX's plain-text errors, an empty body): its text, whole. */
export function textInfoset(text: string): InfoNode {
  const element = node('');
  element.text = text;
  return element;
}
