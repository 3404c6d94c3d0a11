/**
 * Micro-benchmark of the promotions engine (issue 32; not a test, not part of `npm test` or `npm run bench`):
 * 1,000 active promotions (900 catalogue ones by product, producer or collection, 80 order-level, 20 buy-X-get-Y)
 * compiled once, then 100-line carts evaluated one after another; prints the compile time and the evaluation
 * p50/p99/max (wall clock) and the p50/p99 of the process's CPU time per evaluation. Target: p99 <= 2 ms. Run: `npm run bench:promotions [-- <evaluations>]`.
 */
import { compilePromotions, evaluatePromotions } from '../src/promotions/engine/index.js';
import type { EngineCart, EngineLine, PromotionDefinition } from '../src/promotions/engine/index.js';

const EVALUATIONS = Number(process.argv[2] ?? 5000);
const PRODUCTS = 5000;
let seed = 32;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

const productOnly = { product: false, order: true, shipping: true, discount_codes: true };
const orderOnly = { product: true, order: false, shipping: true, discount_codes: false };
const promotions: PromotionDefinition[] = [];
for (let i = 0; i < 900; i++) {
  const kind = i % 3;
  const selector =
    kind === 0
      ? [{ type: 'product' as const, ids: [`p${int(0, PRODUCTS - 1)}`, `p${int(0, PRODUCTS - 1)}`] }]
      : kind === 1
        ? [{ type: 'manufacturer' as const, ids: [`m${int(0, 499)}`] }]
        : [{ type: 'collection' as const, ids: [`c${int(0, 199)}`] }];
  promotions.push({
    id: `cat-${i}`,
    name: `Catalogue ${i}`,
    priority: int(0, 5),
    combinesWith: productOnly,
    conditions: [{ type: 'lines', selector }],
    actions: [rand() < 0.7 ? { type: 'percent_off_lines', percent: int(5, 30) } : { type: 'fixed_off_lines', amount: int(100, 500) }],
  });
}
for (let i = 0; i < 80; i++) {
  promotions.push({
    id: `order-${i}`,
    name: `Order ${i}`,
    priority: int(0, 5),
    combinesWith: orderOnly,
    conditions: [{ type: 'min_subtotal', amount: int(5_000, 200_000) }, ...(i % 4 === 0 ? [{ type: 'customer_signed_in' as const }] : [])],
    actions: [i % 2 ? { type: 'percent_off_order', percent: int(2, 15) } : { type: 'fixed_off_order', amount: int(500, 5000) }],
  });
}
for (let i = 0; i < 20; i++) {
  promotions.push({
    id: `bxgy-${i}`,
    name: `Buy X get Y ${i}`,
    priority: int(0, 5),
    combinesWith: productOnly,
    conditions: [],
    actions: [
      {
        type: 'buy_x_get_y',
        buy: [{ type: 'manufacturer', ids: [`m${int(0, 499)}`] }],
        buy_quantity: int(2, 3),
        get: [{ type: 'collection', ids: [`c${int(0, 199)}`] }],
        get_quantity: 1,
        percent: 100,
        max_applications: 2,
      },
    ],
  });
}

function randomCart(): EngineCart {
  const lines: EngineLine[] = [];
  const used = new Set<number>();
  while (lines.length < 100) {
    const p = int(0, PRODUCTS - 1);
    if (used.has(p)) continue;
    used.add(p);
    const unit = int(800, 12_000);
    const quantity = int(1, 6);
    lines.push({
      variantId: `v${p}`,
      productId: `p${p}`,
      collectionIds: [`c${p % 200}`, `c${(p * 7) % 200}`],
      categoryIds: [`k${p % 8}`],
      manufacturerId: `m${p % 500}`,
      facets: { colour: [['red', 'white', 'rose'][p % 3]], vintage: [String(2010 + (p % 12))] },
      customFields: {},
      quantity,
      unit,
      amount: unit * quantity,
    });
  }
  return {
    lines,
    customer: rand() < 0.5 ? { id: 'c', groupIds: [], firstOrder: false } : null,
    guestFirstOrder: false,
    shipping: null,
    codes: [],
    hasDiscountCode: false,
  };
}

const carts = Array.from({ length: 50 }, randomCart);
let t = process.hrtime.bigint();
const compiled = compilePromotions(promotions);
const compileMs = Number(process.hrtime.bigint() - t) / 1e6;
for (let i = 0; i < 500; i++) evaluatePromotions(compiled, carts[i % carts.length]); // warm-up
const times: number[] = [];
const cpu: number[] = [];
let applied = 0;
for (let i = 0; i < EVALUATIONS; i++) {
  const c = process.cpuUsage();
  t = process.hrtime.bigint();
  const r = evaluatePromotions(compiled, carts[i % carts.length]);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  applied += r.discounts.length;
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const at = (q: number, list = times) => list[Math.min(list.length - 1, Math.floor(q * list.length))].toFixed(3);
console.log(
  JSON.stringify({
    promotions: promotions.length,
    cart_lines: 100,
    evaluations: EVALUATIONS,
    compile_ms: Number(compileMs.toFixed(2)),
    p50_ms: Number(at(0.5)),
    p99_ms: Number(at(0.99)),
    max_ms: Number(times[times.length - 1].toFixed(3)),
    // CPU time of the process per evaluation: what the engine costs when the machine is shared (wall-clock p99 on a
    // loaded machine is mostly the time the process waited for a core)
    cpu_p50_ms: Number(at(0.5, cpu)),
    cpu_p99_ms: Number(at(0.99, cpu)),
    applied_per_cart: Number((applied / EVALUATIONS).toFixed(1)),
  }),
);
