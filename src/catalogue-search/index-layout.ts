import { DIM, VARIANT_DIM_COLUMNS } from './dims.js';
import type { TenantIndex } from './tenant-index.js';
import type { ReadonlyTenantIndex } from './tenant-index-view.js';

/**
 * The layout by category of a `TenantIndex` (`TenantIndex.layout`, `clustered`): the products' order, and the copy
 * filled in that order in slices. Reads `src` only; writes only the fresh copy `c`.
 */

/** A layout in progress (see `TenantIndex.layout`). */
export interface LayoutJob {
  copy: TenantIndex;
  slices: Generator<void, void, void>;
  current: () => boolean;
  finish: () => void;
}

/** `TenantIndex.layout` of `src` into the empty `copy`. */
export function layoutJob(src: ReadonlyTenantIndex, copy: TenantIndex): LayoutJob {
  const mark = () => [src.contentVersion, src.pCount, src.vCount, src.deadVariants, src.alive].join();
  const at = mark();
  const vOld = { map: new Int32Array(0) };
  return {
    copy,
    slices: fillLayout(src, copy, vOld),
    current: () => mark() === at,
    finish: () => {
      const nv = copy.vCount;
      copy.vAvail = new Uint8Array(nv);
      copy.vOnHand = new Float64Array(nv);
      for (let v = 0; v < nv; v++) {
        copy.vAvail[v] = src.vAvail[vOld.map[v]];
        copy.vOnHand[v] = src.vOnHand[vOld.map[v]];
      }
      copy.version = src.version;
      copy.stockVersion = src.stockVersion;
      // the text dictionary renumbered rather than tokenized again (when the source's is synced)
      copy.text.adoptLayout(src.text, src.vCount, vOld.map);
    },
  };
}

/** The products' order of the layout by category (slots of `src`). */
function layoutOrder(src: ReadonlyTenantIndex): Int32Array {
  const n = src.pCount;
  const codes = src.codeIds.length;
  // categories ranked by product count, largest first
  const catCount = new Int32Array(codes);
  let depth = 0;
  for (let p = 0; p < n; p++) {
    if (!src.pAlive[p]) continue;
    if (src.pCatLen[p] > depth) depth = src.pCatLen[p];
    for (let i = src.pCatStart[p], e = i + src.pCatLen[p]; i < e; i++) catCount[src.catPool[i]]++;
  }
  const cats = src.dimCodes[DIM.categories];
  const rank = new Int32Array(codes);
  cats
    .slice()
    .sort((a, b) => catCount[b] - catCount[a] || a - b)
    .forEach((c, i) => (rank[c] = i));
  // a chain (its ranks ascending) as one number: digit i is the i-th rank + 1 in base (categories + 1), shorter
  // chains padded with zeros, so numbers compare as chains do; then the first variant's country, then the slot
  const base = cats.length + 1;
  const countries = codes + 1;
  const chainMax = base ** depth;
  if (!(chainMax * countries * n < Number.MAX_SAFE_INTEGER)) return sortedByChain(src, rank); // too many to pack
  const keys = new Float64Array(n);
  const digits = new Int32Array(depth);
  const colCountry = src.vDim[DIM.countries];
  let k = 0;
  for (let p = 0; p < n; p++) {
    if (!src.pAlive[p]) continue;
    // the chain's ranks in ascending order (insertion sort: a chain is a few categories)
    let len = 0;
    for (let i = src.pCatStart[p], e = i + src.pCatLen[p]; i < e; i++) {
      const r = rank[src.catPool[i]];
      let j = len++;
      while (j > 0 && digits[j - 1] > r) {
        digits[j] = digits[j - 1];
        j--;
      }
      digits[j] = r;
    }
    let chain = 0;
    for (let i = 0; i < depth; i++) chain = chain * base + (i < len ? digits[i] + 1 : 0);
    const country = src.pVarLen[p] > 0 ? colCountry[src.varPool[src.pVarStart[p]]] : -1;
    keys[k++] = (chain * countries + country + 1) * n + p;
  }
  keys.subarray(0, k).sort();
  const order = new Int32Array(k);
  for (let i = 0; i < k; i++) order[i] = keys[i] % n;
  return order;
}

/** The living products by chain (ranks ascending, compared as sequences), then slot: when the packed keys do not fit a double. */
function sortedByChain(src: ReadonlyTenantIndex, rank: Int32Array): Int32Array {
  const chains: number[][] = [];
  const alive: number[] = [];
  for (let p = 0; p < src.pCount; p++) {
    if (!src.pAlive[p]) continue;
    alive.push(p);
    const chain: number[] = [];
    for (let i = src.pCatStart[p], e = i + src.pCatLen[p]; i < e; i++) chain.push(rank[src.catPool[i]]);
    chains[p] = chain.sort((a, b) => a - b);
  }
  return Int32Array.from(alive).sort((a, b) => {
    const x = chains[a];
    const y = chains[b];
    for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length || a - b;
  });
}

/**
 * Fills `c` with the products of `src` in the layout's order, their live variants after one another in the same
 * order (`vOld.map`: each new variant slot's slot in `src`), yielding between slices.
 */
function* fillLayout(src: ReadonlyTenantIndex, c: TenantIndex, vOld: { map: Int32Array }): Generator<void, void, void> {
  const SLICE = 20_000;
  const order = layoutOrder(src);
  yield;
  c.byCategory = true;
  c.version = src.version;
  c.contentVersion = src.contentVersion;
  c.stockVersion = src.stockVersion;
  c.builtAt = src.builtAt;
  c.buildLsn = src.buildLsn;
  for (const [id, code] of src.codeOf) c.codeOf.set(id, code);
  c.codeIds = src.codeIds.slice();
  c.codeDim = src.codeDim.slice();
  src.dimCodes.forEach((list, d) => {
    for (const code of list) c.dimCodes[d].push(code); // (no spread: a dimension may hold more codes than arguments fit)
  });
  const n = order.length;
  let nv = 0;
  for (const p of order) for (let i = src.pVarStart[p], e = i + src.pVarLen[p]; i < e; i++) if (src.vProduct[src.varPool[i]] >= 0) nv++;
  c.pCount = n;
  c.vCount = nv;
  c.pIds = new Array<string>(n);
  c.pTitle = new Array<string>(n);
  c.pAlive = new Uint8Array(n);
  c.pCreated = new Float64Array(n);
  c.pRating = new Float64Array(n);
  c.pMaker = new Int32Array(n);
  c.pLsn = new Float64Array(n);
  c.pCatStart = new Int32Array(n);
  c.pCatLen = new Int32Array(n);
  c.pVarStart = new Int32Array(n);
  c.pVarLen = new Int32Array(n);
  c.catPool = new Int32Array(src.catLen);
  c.varPool = new Int32Array(nv);
  c.vProduct = new Int32Array(nv);
  const old = (vOld.map = new Int32Array(nv));
  let cats = 0;
  let vars = 0;
  for (let q = 0; q < n; q++) {
    if (q % SLICE === SLICE - 1) yield;
    const p = order[q];
    c.pIds[q] = src.pIds[p];
    c.pIndex.set(src.pIds[p], q);
    c.pTitle[q] = src.pTitle[p];
    c.pAlive[q] = src.pAlive[p];
    c.alive += src.pAlive[p];
    c.pCreated[q] = src.pCreated[p];
    c.pRating[q] = src.pRating[p];
    c.pMaker[q] = src.pMaker[p];
    c.pLsn[q] = src.pLsn[p];
    c.pCatStart[q] = cats;
    for (let i = src.pCatStart[p], e = i + src.pCatLen[p]; i < e; i++) c.catPool[cats++] = src.catPool[i];
    c.pCatLen[q] = cats - c.pCatStart[q];
    c.pVarStart[q] = vars;
    for (let i = src.pVarStart[p], e = i + src.pVarLen[p]; i < e; i++) {
      const v = src.varPool[i];
      if (src.vProduct[v] < 0) continue;
      old[vars] = v;
      c.varPool[vars] = vars;
      c.vProduct[vars] = q;
      vars++;
    }
    c.pVarLen[q] = vars - c.pVarStart[q];
  }
  c.catLen = cats;
  c.varLen = vars;
  const gather = <A extends Float64Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Uint8Array<ArrayBuffer>>(a: ArrayLike<number>, make: (k: number) => A): A => {
    const b = make(nv);
    for (let v = 0; v < nv; v++) b[v] = a[old[v]];
    return b;
  };
  c.vGross4 = gather(src.vGross4, (k) => new Float64Array(k));
  c.vOnSale = gather(src.vOnSale, (k) => new Uint8Array(k));
  for (const [d] of VARIANT_DIM_COLUMNS) c.vDim[d] = gather(src.vDim[d], (k) => new Int32Array(k));
  c.vIds = new Array<string>(nv);
  c.vSku = new Array<string | null>(nv);
  c.vOptStart = new Int32Array(nv);
  c.vOptLen = new Uint8Array(nv);
  c.optPool = new Int32Array(src.optLen);
  let opts = 0;
  yield;
  for (let v = 0; v < nv; v++) {
    if (v % SLICE === SLICE - 1) yield;
    const o = old[v];
    const id = src.vIds[o];
    c.vIds[v] = id;
    c.vIndex.set(id, v);
    const sku = src.vSku[o];
    c.vSku[v] = sku;
    c.text.put(v, ...src.text.source(o));
    if (sku) {
      const list = c.skuIndex.get(sku);
      if (list) list.push(v);
      else c.skuIndex.set(sku, [v]);
    }
    c.vOptStart[v] = opts;
    for (let i = src.vOptStart[o], e = i + src.vOptLen[o]; i < e; i++) c.optPool[opts++] = src.optPool[i];
    c.vOptLen[v] = opts - c.vOptStart[v];
  }
  c.optLen = opts;
}
