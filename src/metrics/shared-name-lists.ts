/**
 * A family-name list (the families of a rendered slice, the names of a slice's kept samples) is the
 * same in every node's slice of a collector: one array per distinct list is kept and shared, not one
 * per slice. At 1,000 nodes the 20,000 per-slice copies held 3.6 MB of live heap, which V8's
 * old generation grows by 40 % on top (bench/results/history.md Part 21, "Fifteenth session").
 */
const lists = new Map<string, readonly string[]>();
/** Distinct lists are few (a collector's families in a few orders); past this many, lists are no longer shared. */
const MAX_SHARED_LISTS = 4096;

/** `names`, or an equal list kept before: `previous` when it is equal (most changed slices keep their families), else the shared one. */
export function sharedNameList(names: readonly string[], previous?: readonly string[]): readonly string[] {
  if (previous && sameNames(previous, names)) return previous;
  const key = names.join('\n');
  const shared = lists.get(key);
  if (shared) return shared;
  if (lists.size < MAX_SHARED_LISTS) lists.set(key, names);
  return names;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
