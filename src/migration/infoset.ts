import { SaxesParser } from 'saxes';

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

function node(name: string, namespace = ''): InfoNode {
  return { name, namespace, attributes: new Map(), text: '', children: [] };
}

/** The XML document's root, or undefined when the text is not well-formed XML (or has a DOCTYPE). */
export function xmlInfoset(text: string): InfoNode | undefined {
  const parser = new SaxesParser({ xmlns: true });
  const open: InfoNode[] = [];
  let root: InfoNode | undefined;
  let failed = false;
  parser.on('error', () => {
    failed = true;
  });
  parser.on('doctype', () => {
    failed = true;
  });
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
  } catch {
    return undefined;
  }
  return failed ? undefined : root;
}

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

/** The JSON document as an infoset under a root named '', or undefined when it is not JSON. */
export function jsonInfoset(text: string): InfoNode | undefined {
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

export interface Difference {
  /** Where, by local names from the root: /Envelope/Body/GetStudentInfoByIdResponse/…; '/@name' for an attribute. */
  readonly path: string;
  readonly local: string;
  readonly legacy: string;
}

/** Past this many differences in one answer the rest are not listed: one is enough to mark it different. */
const MAX_DIFFERENCES = 50;

/**
 * Where two infosets differ: an element's name or namespace, an attribute, a leaf's text, the
 * number of an element's children (and then the children both have, in order). Paths carry no
 * positions, so that a field differing in many items of a list counts as one path.
 */
export function differences(local: InfoNode, legacy: InfoNode): Difference[] {
  const found: Difference[] = [];
  const walk = (a: InfoNode, b: InfoNode, path: string) => {
    if (found.length >= MAX_DIFFERENCES) return;
    if (a.name !== b.name || a.namespace !== b.namespace) {
      found.push({ path, local: `{${a.namespace}}${a.name}`, legacy: `{${b.namespace}}${b.name}` });
      return;
    }
    for (const key of new Set([...a.attributes.keys(), ...b.attributes.keys()])) {
      const [x, y] = [a.attributes.get(key), b.attributes.get(key)];
      if (x !== y) found.push({ path: `${path}/@${key}`, local: x ?? '(none)', legacy: y ?? '(none)' });
    }
    if (a.text !== b.text) found.push({ path, local: a.text, legacy: b.text });
    const count = Math.max(a.children.length, b.children.length);
    if (a.children.length !== b.children.length) {
      found.push({
        path: `${path}/*`,
        local: `${a.children.length} children`,
        legacy: `${b.children.length} children`,
      });
    }
    for (let index = 0; index < count; index++) {
      const [x, y] = [a.children[index], b.children[index]];
      if (x && y) walk(x, y, `${path}/${x.name === y.name ? x.name : '*'}`);
    }
  };
  walk(local, legacy, local.name === legacy.name && local.name !== '' ? `/${local.name}` : '');
  return found.map((difference) => (difference.path === '' ? { ...difference, path: '/' } : difference));
}
