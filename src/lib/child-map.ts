/**
 * The map under `key` in `parent`, made on first use: for figures and caches looked up by a few
 * labels in turn, a label a level, so that a lookup makes no joined key (a new string to build and
 * hash on every call) of its own.
 */
export function childMap<Key, ChildKey, Value>(parent: Map<Key, Map<ChildKey, Value>>, key: Key): Map<ChildKey, Value> {
  let child = parent.get(key);
  if (!child) {
    child = new Map();
    parent.set(key, child);
  }
  return child;
}
