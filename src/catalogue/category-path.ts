/**
 * The `category_path` of a product detail (SPEC: root first): the chain to its deepest assigned category. Where the
 * assigned categories form several branches (not all on one root-to-leaf chain), the branch is the first assigned
 * category's: the deepest assigned category that is an ancestor or a descendant of it (on a tie, the one assigned
 * first). `pathOf` gives a category's path, root first, ending with itself (undefined: unknown, taken as a root).
 */
export function categoryPathOf(assigned: readonly string[], pathOf: (id: string) => readonly string[] | undefined): string[] {
  if (assigned.length === 0) return [];
  const chain = (id: string) => pathOf(id) ?? [id];
  const first = chain(assigned[0]);
  let best = first;
  for (const id of assigned.slice(1)) {
    const path = chain(id);
    // on the first's branch: the shorter path is a prefix of the longer one
    const [short, long] = path.length <= first.length ? [path, first] : [first, path];
    if (path.length > best.length && short.every((c, i) => long[i] === c)) best = path;
  }
  return [...best];
}
