/**
 * Applying a set of promotions, and choosing the set that gives the buyer the largest discount.
 *
 * Applying (`applySet`): product promotions first, in rank order (priority descending, id ascending), each line's
 * part capped at what is left of the line; then order promotions in rank order, each on what is left of the
 * subtotal (percent rounded once, fixed capped), spread over the remaining line amounts by largest remainder; then
 * shipping promotions on what is left of the shipping. So no line, order or shipping total goes below zero.
 *
 * Combining: two promotions may apply together when each one's `combines_with` names the other's class; two product
 * promotions that do not combine may still both apply when they touch different lines (Shopify's rule). The
 * conflicts form a graph; a promotion in conflict with none always applies (adding one never lowers the total).
 * Each group of promotions in conflict with one another is searched exactly over its first `EXACT_GROUP` members in
 * rank order (depth first, include before exclude, a branch pruned when the sum of the promotions' own discounts
 * cannot beat the best found; at most `LEAF_BUDGET` complete choices per group), its further members being added
 * greedily in rank order where they conflict with nothing chosen. Tie-break: a choice replaces the best only when
 * strictly larger, so among equal discounts the one found first wins: the one including the higher-ranked
 * promotion. Everything depends on the rank and the canonical line order only, never on the input order.
 */
import { allocateLargestRemainder, percentOfMinor } from './allocate.js';
import type { CompiledPromotion } from './compile.js';
import type { EngineCart, PromotionClass } from './types.js';

export const EXACT_GROUP = 16;
export const LEAF_BUDGET = 4096;

export interface Candidate {
  p: CompiledPromotion;
  /** Its discount on its own (an upper bound of what it adds to any set). */
  own: number;
  /** Product promotions: minor units off each canonical line on its own; the lines it touches. */
  perLine: number[] | null;
  touched: number[];
}

export interface Applied {
  candidate: Candidate;
  /** Per canonical line. */
  lineParts: Map<number, number>;
  shipping: number;
  amount: number;
}

const CLASS_ORDER: Record<PromotionClass, number> = { product: 0, order: 1, shipping: 2 };

export function applySet(set: readonly Candidate[], amounts: readonly number[], shipping: EngineCart['shipping']): { applied: Applied[]; total: number } {
  const ordered = [...set].sort((a, b) => CLASS_ORDER[a.p.promotionClass] - CLASS_ORDER[b.p.promotionClass] || a.p.rank - b.p.rank);
  const remaining = [...amounts];
  let shipLeft = shipping?.amount ?? 0;
  let total = 0;
  const applied: Applied[] = [];
  for (const c of ordered) {
    const lineParts = new Map<number, number>();
    let amount = 0;
    let ship = 0;
    if (c.perLine) {
      for (const i of c.touched) {
        const d = Math.min(c.perLine[i], remaining[i]);
        if (d > 0) {
          remaining[i] -= d;
          lineParts.set(i, d);
          amount += d;
        }
      }
    } else {
      for (const a of c.p.def.actions) {
        if (a.type === 'percent_off_order' || a.type === 'fixed_off_order') {
          const base = remaining.reduce((s, v) => s + v, 0);
          const d = Math.min(base, a.type === 'percent_off_order' ? percentOfMinor(base, a.percent) : a.amount);
          allocateLargestRemainder(d, remaining).forEach((part, i) => {
            if (part > 0) {
              remaining[i] -= part;
              lineParts.set(i, (lineParts.get(i) ?? 0) + part);
            }
          });
          amount += d;
        } else if (a.type === 'shipping' && shipping && shippingApplies(a, shipping)) {
          const d = Math.min(shipLeft, a.amount !== null ? a.amount : percentOfMinor(shipLeft, a.percent ?? 100));
          shipLeft -= d;
          ship += d;
          amount += d;
        }
      }
    }
    total += amount;
    applied.push({ candidate: c, lineParts, shipping: ship, amount });
  }
  return { applied, total };
}

export function shippingApplies(a: { method_ids: string[]; countries: string[] }, shipping: NonNullable<EngineCart['shipping']>): boolean {
  return (
    (a.method_ids.length === 0 || (shipping.methodId !== null && a.method_ids.includes(shipping.methodId))) &&
    (a.countries.length === 0 || (shipping.country !== null && a.countries.includes(shipping.country)))
  );
}

function mayCombine(a: Candidate, b: Candidate): boolean {
  return a.p.def.combinesWith[b.p.promotionClass] && b.p.def.combinesWith[a.p.promotionClass];
}

/** Conflict lists by candidate index (candidates in rank order). */
function conflicts(cands: readonly Candidate[], lineCount: number): Set<number>[] {
  const out = cands.map(() => new Set<number>());
  const byLine: number[][] = Array.from({ length: lineCount }, () => []);
  cands.forEach((c, i) => {
    if (c.p.promotionClass === 'product') for (const l of c.touched) byLine[l].push(i);
  });
  const mark = (i: number, j: number) => {
    if (i !== j && !mayCombine(cands[i], cands[j])) {
      out[i].add(j);
      out[j].add(i);
    }
  };
  for (const at of byLine) for (let x = 0; x < at.length; x++) for (let y = x + 1; y < at.length; y++) mark(at[x], at[y]);
  cands.forEach((c, i) => {
    if (c.p.promotionClass !== 'product') for (let j = 0; j < cands.length; j++) mark(i, j);
  });
  return out;
}

/** The chosen candidates (in rank order) and their application. */
export function chooseBest(cands: readonly Candidate[], amounts: readonly number[], shipping: EngineCart['shipping']): { applied: Applied[]; total: number } {
  const conf = conflicts(cands, amounts.length);
  const groups = components(conf);
  const chosen = new Set<number>();
  const multi: number[][] = [];
  for (const g of groups) {
    if (g.length === 1) chosen.add(g[0]);
    else multi.push(g);
  }
  // start every group at its greedy choice, then replace each by its searched best
  const choice = multi.map((g) => greedy(g, [], conf));
  for (let k = 0; k < multi.length; k++) {
    const outside = [...chosen, ...choice.filter((_, j) => j !== k).flat()];
    choice[k] = searchGroup(multi[k], outside, cands, conf, amounts, shipping, choice[k]);
  }
  const set = [...chosen, ...choice.flat()].sort((a, b) => a - b).map((i) => cands[i]);
  return applySet(set, amounts, shipping);
}

function components(conf: readonly Set<number>[]): number[][] {
  const seen = new Set<number>();
  const out: number[][] = [];
  for (let i = 0; i < conf.length; i++) {
    if (seen.has(i)) continue;
    const group: number[] = [];
    const stack = [i];
    seen.add(i);
    while (stack.length) {
      const v = stack.pop()!;
      group.push(v);
      for (const w of conf[v]) {
        if (seen.has(w)) continue;
        seen.add(w);
        stack.push(w);
      }
    }
    out.push(group.sort((a, b) => a - b));
  }
  return out;
}

/** Adds the members, in rank order, that conflict with nothing in `start`. */
function greedy(members: readonly number[], start: readonly number[], conf: readonly Set<number>[]): number[] {
  const out = [...start];
  for (const m of members) if (!out.some((o) => conf[m].has(o))) out.push(m);
  return out;
}

function searchGroup(
  group: readonly number[],
  outside: readonly number[],
  cands: readonly Candidate[],
  conf: readonly Set<number>[],
  amounts: readonly number[],
  shipping: EngineCart['shipping'],
  initial: number[],
): number[] {
  const exact = group.slice(0, EXACT_GROUP);
  const tail = group.slice(EXACT_GROUP);
  const totalOf = (ids: readonly number[]) =>
    applySet(
      [...outside, ...ids].map((i) => cands[i]),
      amounts,
      shipping,
    ).total;
  const base = totalOf([]) + tail.reduce((s, i) => s + cands[i].own, 0);
  let best = initial;
  let bestTotal = totalOf(initial);
  // an upper bound of a choice: the others' total, plus the own discounts of the picked, the tail and what may follow
  let leaves = 0;
  const visit = (k: number, picked: number[], ownSum: number): void => {
    if (leaves >= LEAF_BUDGET) return;
    let bound = base + ownSum;
    for (let j = k; j < exact.length; j++) if (!picked.some((o) => conf[exact[j]].has(o))) bound += cands[exact[j]].own;
    if (bound <= bestTotal) return;
    if (k === exact.length) {
      leaves++;
      const full = greedy(tail, picked, conf);
      const t = totalOf(full);
      if (t > bestTotal) {
        bestTotal = t;
        best = full;
      }
      return;
    }
    const m = exact[k];
    const fits = !picked.some((o) => conf[m].has(o));
    if (fits) visit(k + 1, [...picked, m], ownSum + cands[m].own);
    // leaving out a member only helps when it shuts out a later one
    if (!fits || exact.slice(k + 1).some((j) => conf[m].has(j))) visit(k + 1, picked, ownSum);
  };
  visit(0, [], 0);
  return best;
}
