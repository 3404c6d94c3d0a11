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

/**
 * The conflict graph over candidate indexes as a bit matrix (one row of 32-bit words per candidate): building it is
 * a few word writes per pair, not a set insertion, and a test is one load (the graph of a 100-line cart with 1,000
 * promotions has tens of thousands of edges: most order promotions conflict with most product ones).
 */
export class ConflictGraph {
  readonly words: number;
  readonly bits: Uint32Array;

  constructor(readonly n: number) {
    this.words = (n + 31) >>> 5;
    this.bits = new Uint32Array(this.words * n);
  }

  has(i: number, j: number): boolean {
    return (this.bits[i * this.words + (j >>> 5)] & (1 << (j & 31))) !== 0;
  }

  add(i: number, j: number): void {
    this.bits[i * this.words + (j >>> 5)] |= 1 << (j & 31);
    this.bits[j * this.words + (i >>> 5)] |= 1 << (i & 31);
  }

  /** Calls `f` with each neighbour of `i`, ascending. */
  forEach(i: number, f: (j: number) => void): void {
    const row = i * this.words;
    for (let w = 0; w < this.words; w++) {
      let x = this.bits[row + w];
      while (x !== 0) {
        const b = 31 - Math.clz32(x & -x);
        f((w << 5) | b);
        x &= x - 1;
      }
    }
  }

  /** True when `i` conflicts with any of `others`. */
  any(i: number, others: readonly number[]): boolean {
    for (const o of others) if (this.has(i, o)) return true;
    return false;
  }
}

/** The conflict graph over the candidates (in rank order), and the product candidates on each line. */
function conflicts(cands: readonly Candidate[], lineCount: number): { conf: ConflictGraph; byLine: number[][] } {
  const n = cands.length;
  const conf = new ConflictGraph(n);
  const bit = new Uint8Array(n);
  const accepts = new Uint8Array(n);
  cands.forEach((c, i) => {
    bit[i] = CLASS_BIT[c.p.promotionClass];
    const w = c.p.def.combinesWith;
    accepts[i] = (w.product ? 1 : 0) | (w.order ? 2 : 0) | (w.shipping ? 4 : 0);
  });
  const byLine: number[][] = Array.from({ length: lineCount }, () => []);
  cands.forEach((c, i) => {
    if (c.parts) for (const l of c.touched) byLine[l].push(i);
  });
  const clash = (i: number, j: number) => !(accepts[i] & bit[j] && accepts[j] & bit[i]);
  for (const at of byLine) {
    for (let x = 0; x < at.length; x++) for (let y = x + 1; y < at.length; y++) if (clash(at[x], at[y])) conf.add(at[x], at[y]);
  }
  // an order or shipping candidate meets every other candidate (its discount is on the whole order or the shipping);
  // whether two clash depends on their class and combines_with only, so the candidates are visited by that
  // signature and only the signatures that clash are walked (an order promotion combining with product ones skips them all)
  const sig = (i: number) => (bit[i] << 3) | accepts[i];
  const bySig: number[][] = Array.from({ length: 64 }, () => []);
  for (let j = 0; j < n; j++) bySig[sig(j)].push(j);
  const sigs = bySig.map((list, k) => k).filter((k) => bySig[k].length > 0);
  for (let i = 0; i < n; i++) {
    if (cands[i].parts) continue;
    for (const k of sigs) {
      const other = bySig[k][0];
      if (!clash(i, other)) continue;
      for (const j of bySig[k]) if (j !== i) conf.add(i, j);
    }
  }
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
  // taken[i]: candidate i is in the current choice (a fixed one, or its small group's current choice)
  const taken = new Uint8Array(cands.length);
  for (const i of chosen) taken[i] = 1;
  for (const c of choice) for (const i of c) taken[i] = 1;
  const stamp = new Int32Array(cands.length).fill(-1);
  for (let k = 0; k < small.length; k++) {
    const group = small[k];
    let outside: number[];
    if (group.every((i) => cands[i].parts)) {
      // product promotions only change their own lines: the rest that matters is the product promotions there
      outside = [];
      for (const i of group) {
        for (const l of cands[i].touched) {
          for (const j of byLine[l]) {
            if (stamp[j] === k) continue;
            stamp[j] = k;
            if (groupOf[j] !== k && taken[j]) outside.push(j);
          }
        }
      }
    } else outside = [...chosen, ...choice.filter((_, j) => j !== k).flat()];
    const next = searchGroup(group, outside, cands, conf, amounts, shipping);
    if (next) {
      for (const i of choice[k]) taken[i] = 0;
      for (const i of next) taken[i] = 1;
      choice[k] = next;
    }
  }
  const set = [...chosen, ...choice.flat()].sort((a, b) => a - b).map((i) => cands[i]);
  return applySet(set, amounts, shipping);
}

function components(conf: ConflictGraph): number[][] {
  const seen = new Uint8Array(conf.n);
  const out: number[][] = [];
  for (let i = 0; i < conf.n; i++) {
    if (seen[i]) continue;
    const group: number[] = [];
    const stack = [i];
    seen[i] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      group.push(v);
      conf.forEach(v, (w) => {
        if (seen[w]) return;
        seen[w] = 1;
        stack.push(w);
      });
    }
    out.push(group.sort((a, b) => a - b));
  }
  return out;
}

/** Largest own discount first (ties: rank), each member taken unless it conflicts with one already taken. */
function greedy(members: readonly number[], cands: readonly Candidate[], conf: ConflictGraph): number[] {
  const out: number[] = [];
  const blocked = new Uint32Array(conf.words);
  for (const m of [...members].sort((a, b) => cands[b].own - cands[a].own || a - b)) {
    if (blocked[m >>> 5] & (1 << (m & 31))) continue;
    out.push(m);
    for (let w = 0, row = m * conf.words; w < conf.words; w++) blocked[w] |= conf.bits[row + w];
  }
  return out;
}

/** The best choice within a group of at most `EXACT_GROUP` members, or null when the leaf budget ran out first. */
function searchGroup(
  group: readonly number[],
  outside: readonly number[],
  cands: readonly Candidate[],
  conf: ConflictGraph,
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
    for (let j = k; j < group.length; j++) if (!conf.any(group[j], picked)) bound += cands[group[j]].own;
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
    const fits = !conf.any(m, picked);
    if (fits) visit(k + 1, [...picked, m], ownSum + cands[m].own);
    // leaving out a member only helps when it shuts out a later one
    if (!fits || group.slice(k + 1).some((j) => conf.has(m, j))) visit(k + 1, picked, ownSum);
  };
  visit(0, [], 0);
  return leaves >= LEAF_BUDGET ? null : best;
}
