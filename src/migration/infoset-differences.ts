import { type InfoNode, OverBudget } from './infoset';

export interface Difference {
  /** Where, by local names from the root: /Envelope/Body/GetStudentInfoByIdResponse/…; '/@name' for an attribute. */
  readonly path: string;
  readonly local: string;
  readonly legacy: string;
}

/** Past this many differences in one answer the rest are not listed: one is enough to mark it different. */
const MAX_DIFFERENCES = 50;

/**
 * A pair of elements still to compare. Its path is its parent's and its own step, put together
 * only for a difference: building a path string per level cost a 20,000-deep answer seconds.
 */
interface Pair {
  readonly local: InfoNode;
  readonly legacy: InfoNode;
  readonly parent: Pair | undefined;
  /** '/Name', '/*' where the two names differ, '' for a root without a name (JSON). */
  readonly step: string;
}

function pathOf(pair: Pair): string {
  const steps: string[] = [];
  for (let at: Pair | undefined = pair; at; at = at.parent) steps.push(at.step);
  return steps.reverse().join('');
}

/** Where one pair differs in itself (name, attributes, text, number of children), into `found`. */
function compareOne(pair: Pair, found: Difference[]): boolean {
  const { local: a, legacy: b } = pair;
  if (a.name !== b.name || a.namespace !== b.namespace) {
    found.push({ path: pathOf(pair), local: `{${a.namespace}}${a.name}`, legacy: `{${b.namespace}}${b.name}` });
    return false;
  }
  for (const key of new Set([...a.attributes.keys(), ...b.attributes.keys()])) {
    const [x, y] = [a.attributes.get(key), b.attributes.get(key)];
    if (x !== y) found.push({ path: `${pathOf(pair)}/@${key}`, local: x ?? '(none)', legacy: y ?? '(none)' });
  }
  if (a.text !== b.text) found.push({ path: pathOf(pair), local: a.text, legacy: b.text });
  if (a.children.length !== b.children.length) {
    found.push({
      path: `${pathOf(pair)}/*`,
      local: `${a.children.length} children`,
      legacy: `${b.children.length} children`,
    });
  }
  return true;
}

/**
 * Where two infosets differ: an element's name or namespace, an attribute, a leaf's text, the
 * number of an element's children (and then the children both have, in order). Paths carry no
 * positions, so that a field differing in many items of a list counts as one path. The walk is a
 * loop over a stack of pairs, in document order, and compares at most `maxPairs` pairs: past that
 * the answers are OverBudget, not compared further.
 */
export function differences(local: InfoNode, legacy: InfoNode, maxPairs: number): Difference[] | OverBudget {
  const found: Difference[] = [];
  const rootStep = local.name === legacy.name && local.name !== '' ? `/${local.name}` : '';
  const stack: Pair[] = [{ local, legacy, parent: undefined, step: rootStep }];
  let compared = 0;
  while (stack.length > 0 && found.length < MAX_DIFFERENCES) {
    const pair = stack.pop() as Pair;
    compared += 1;
    if (compared > maxPairs) return new OverBudget(`the comparison reached ${maxPairs} elements`);
    if (!compareOne(pair, found)) continue;
    const shared = Math.min(pair.local.children.length, pair.legacy.children.length);
    // Pushed last child first, so that pairs come off the stack in document order.
    for (let index = shared - 1; index >= 0; index--) {
      const [x, y] = [pair.local.children[index], pair.legacy.children[index]];
      stack.push({ local: x, legacy: y, parent: pair, step: `/${x.name === y.name ? x.name : '*'}` });
    }
  }
  return found.map((difference) => (difference.path === '' ? { ...difference, path: '/' } : difference));
}
