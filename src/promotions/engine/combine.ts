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
 * conflicts form a graph, searched by connected group:
 * - a promotion in conflict with none always applies (adding one never lowers the total);
 * - a group of at most `EXACT_GROUP` (12) promotions is searched exactly, with the other groups fixed: depth first in
 *   rank order, include before exclude, a branch pruned when the own discounts still possible cannot beat the best
 *   found, at most `LEAF_BUDGET` (4,096) complete choices; a group of product promotions only is compared on its
 *   own lines. Tie-break: a choice replaces the best only when strictly larger, so among equal totals the one
 *   including the higher-ranked promotion wins;
 * - a larger group (or one whose budget runs out) is chosen greedily: largest own discount first (ties: rank), each
 *   taken unless it conflicts with one already taken.
 * Everything depends on the rank and the canonical line order only, never on the input order.
 */
import { allocateLargestRemainder, percentOfMinor } from './allocate.js';
import type { CompiledPromotion } from './compile.js';
import type { EngineCart, PromotionClass } from './types.js';

export const EXACT_GROUP = 12;
export const LEAF_BUDGET = 4096;

export interface Candidate {
  p: CompiledPromotion;
  /** Its discount on its own (an upper bound of what it adds to any set). */
  own: number;
  /** Product promotions: the canonical lines it reduces on its own (ascending) and by how much (else null, []). */
  parts: number[] | null;
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
  return run(set, amounts, shipping, true);
}

/** The total discount of a set (the same rules as `applySet`, without the per-line detail). */
function totalOf(set: readonly Candidate[], amounts: readonly number[], shipping: EngineCart['shipping']): number {
  return run(set, amounts, shipping, false).total;
}

function run(set: readonly Candidate[], amounts: readonly number[], shipping: EngineCart['shipping'], detail: boolean): { applied: Applied[]; total: number } {
  const ordered = [...set].sort((a, b) => CLASS_ORDER[a.p.promotionClass] - CLASS_ORDER[b.p.promotionClass] || a.p.rank - b.p.rank);
  const remaining = [...amounts];
  let left = remaining.reduce((s, v) => s + v, 0);
  let shipLeft = shipping?.amount ?? 0;
  let total = 0;
  const applied: Applied[] = [];
  for (const c of ordered) {
    const lineParts = new Map<number, number>();
    let amount = 0;
    let ship = 0;
    if (c.parts) {
      for (let k = 0; k < c.touched.length; k++) {
        const i = c.touched[k];
        const d = Math.min(c.parts[k], remaining[i]);
        if (d > 0) {
          remaining[i] -= d;
          if (detail) lineParts.set(i, d);
          amount += d;
        }
      }
      left -= amount;
    } else {
      for (const a of c.p.def.actions) {
        if (a.type === 'percent_off_order' || a.type === 'fixed_off_order') {
          const d = Math.min(left, a.type === 'percent_off_order' ? percentOfMinor(left, a.percent) : a.amount);
          if (detail) {
            allocateLargestRemainder(d, remaining).forEach((part, i) => {
              if (part > 0) {
                remaining[i] -= part;
                lineParts.set(i, (lineParts.get(i) ?? 0) + part);
              }
            });
          }
          left -= d;
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
    if (detail) applied.push({ candidate: c, lineParts, shipping: ship, amount });
  }
  return { applied, total };
}

export function shippingApplies(a: { method_ids: string[]; countries: string[]; zones?: string[] }, shipping: NonNullable<EngineCart['shipping']>): boolean {
  return (
    (a.method_ids.length === 0 || (shipping.methodId !== null && a.method_ids.includes(shipping.methodId))) &&
    (a.countries.length === 0 || (shipping.country !== null && a.countries.includes(shipping.country))) &&
    (!a.zones?.length || (shipping.zones ?? []).some((z) => a.zones!.includes(z)))
  );
}

const CLASS_BIT: Record<PromotionClass, number> = { product: 1, order: 2, shipping: 4 };

/** Conflict lists by candidate index (candidates in rank order), and the product candidates on each line. */
function conflicts(cands: readonly Candidate[], lineCount: number): { conf: Set<number>[]; byLine: number[][] } {
  const conf = cands.map(() => new Set<number>());
  const bit = cands.map((c) => CLASS_BIT[c.p.promotionClass]);
  const accepts = cands.map((c) => {
    const w = c.p.def.combinesWith;
    return (w.product ? 1 : 0) | (w.order ? 2 : 0) | (w.shipping ? 4 : 0);
  });
  const byLine: number[][] = Array.from({ length: lineCount }, () => []);
  cands.forEach((c, i) => {
    if (c.parts) for (const l of c.touched) byLine[l].push(i);
  });
  const mark = (i: number, j: number) => {
    if (i !== j && !(accepts[i] & bit[j] && accepts[j] & bit[i])) {
      conf[i].add(j);
      conf[j].add(i);
    }
  };
  for (const at of byLine) for (let x = 0; x < at.length; x++) for (let y = x + 1; y < at.length; y++) mark(at[x], at[y]);
  cands.forEach((c, i) => {
    if (!c.parts) for (let j = 0; j < cands.length; j++) mark(i, j);
  });
  return { conf, byLine };
}

/** The chosen candidates (in rank order) and their application. */
export function chooseBest(cands: readonly Candidate[], amounts: readonly number[], shipping: EngineCart['shipping']): { applied: Applied[]; total: number } {
  const { conf, byLine } = conflicts(cands, amounts.length);
  const chosen: number[] = [];
  const small: number[][] = [];
  for (const g of components(conf)) {
    if (g.length === 1) chosen.push(g[0]);
    else if (g.length > EXACT_GROUP) chosen.push(...greedy(g, cands, conf));
    else small.push(g);
  }
  // each small group searched exactly with the rest fixed (the other small groups at their greedy choice first)
  const choice = small.map((g) => greedy(g, cands, conf));
  const groupOf = new Int32Array(cands.length).fill(-1);
  small.forEach((g, k) => g.forEach((i) => (groupOf[i] = k)));
  const isChosen = new Uint8Array(cands.length);
  for (const i of chosen) isChosen[i] = 1;
  const isIn = (i: number, k: number) => (groupOf[i] === -1 ? isChosen[i] === 1 : groupOf[i] !== k && choice[groupOf[i]].includes(i));
  for (let k = 0; k < small.length; k++) {
    const group = small[k];
    let outside: number[];
    if (group.every((i) => cands[i].parts)) {
      // product promotions only change their own lines: the rest that matters is the product promotions there
      const near = new Set(group.flatMap((i) => cands[i].touched.flatMap((l) => byLine[l])));
      outside = [...near].filter((i) => isIn(i, k));
    } else outside = [...chosen, ...choice.filter((_, j) => j !== k).flat()];
    choice[k] = searchGroup(group, outside, cands, conf, amounts, shipping) ?? choice[k];
  }
  const set = [...chosen, ...choice.flat()].sort((a, b) => a - b).map((i) => cands[i]);
  return applySet(set, amounts, shipping);
}

function components(conf: readonly Set<number>[]): number[][] {
  const seen = new Uint8Array(conf.length);
  const out: number[][] = [];
  for (let i = 0; i < conf.length; i++) {
    if (seen[i]) continue;
    const group: number[] = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      group.push(v);
      for (const w of conf[v]) {
        if (seen[w]) continue;
        seen[w] = 1;
        stack.push(w);
      }
    }
    out.push(group.sort((a, b) => a - b));
  }
  return out;
}

/** Largest own discount first (ties: rank), each member taken unless it conflicts with one already taken. */
function greedy(members: readonly number[], cands: readonly Candidate[], conf: readonly Set<number>[]): number[] {
  const blocked = new Set<number>();
  const out: number[] = [];
  for (const m of [...members].sort((a, b) => cands[b].own - cands[a].own || a - b)) {
    if (blocked.has(m)) continue;
    out.push(m);
    for (const o of conf[m]) blocked.add(o);
  }
  return out;
}

/** The best choice within a group of at most `EXACT_GROUP` members, or null when the leaf budget ran out first. */
function searchGroup(
  group: readonly number[],
  outside: readonly number[],
  cands: readonly Candidate[],
  conf: readonly Set<number>[],
  amounts: readonly number[],
  shipping: EngineCart['shipping'],
): number[] | null {
  // a group of product promotions only is compared on its lines, with the product promotions outside that touch
  // them (more product discount never lowers the total)
  const productOnly = group.every((i) => cands[i].parts);
  const others = outside.map((i) => cands[i]);
  const value = (ids: readonly number[]) => totalOf([...others, ...ids.map((i) => cands[i])], amounts, productOnly ? null : shipping);
  const base = value([]);
  let best: number[] | null = null;
  let bestTotal = -1;
  let leaves = 0;
  // depth first in rank order, include before exclude; pruned when the own discounts left cannot beat the best
  const visit = (k: number, picked: number[], ownSum: number): void => {
    if (leaves >= LEAF_BUDGET) return;
    let bound = base + ownSum;
    for (let j = k; j < group.length; j++) if (!picked.some((o) => conf[group[j]].has(o))) bound += cands[group[j]].own;
    if (bound <= bestTotal) return;
    if (k === group.length) {
      leaves++;
      const t = value(picked);
      if (t > bestTotal) {
        bestTotal = t;
        best = picked;
      }
      return;
    }
    const m = group[k];
    const fits = !picked.some((o) => conf[m].has(o));
    if (fits) visit(k + 1, [...picked, m], ownSum + cands[m].own);
    // leaving out a member only helps when it shuts out a later one
    if (!fits || group.slice(k + 1).some((j) => conf[m].has(j))) visit(k + 1, picked, ownSum);
  };
  visit(0, [], 0);
  return leaves >= LEAF_BUDGET ? null : best;
}
