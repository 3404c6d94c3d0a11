/**
 * Issue 32's end-to-end cart case (imported by bench.mjs, which passes its helpers in `b`):
 * `promotions-cart`: one guest cart of 100 lines, and 1,000 promotions (900 catalogue ones by product, producer or
 * collection, 80 order-level, 20 buy-X-get-Y; named `bench-cart …`, replaced at every run). GET /cart is measured
 * (`--connections`, warm-up, `--duration`) in 7 phases, without and with the promotions in turn: each "with" phase
 * is a time window of its own copy of the promotions (`starts_at`/`ends_at`; the server's promotion cache reloads
 * exactly at a start or end), so without / with pairs are close in time and a shared machine's load drift shows in
 * the per-pair ratios. The ratio is the mean req/s with over the mean without. Target: no more than 15 % slower
 * (ratio >= 0.85). Run: `npm run bench -- --products 2000 --cases promotions-cart` (catalogue size does not matter).
 */

import { readFileSync } from 'node:fs';

const TTL_WAIT_MS = 31_000;
const PAIRS = 3;
const productOnly = { product: false, order: true, shipping: true, discount_codes: true };
const orderOnly = { product: true, order: false, shipping: true, discount_codes: false };

function random(seed) {
  let s = seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { rand, int: (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)), pick: (list) => list[Math.floor(rand() * list.length)] };
}

/** The promotion mix of issue 32 on the shop's real products, producers and collections (wire form). */
function promotionMix(products, manufacturers, collections) {
  const { rand, int, pick } = random(32);
  const out = [];
  for (let i = 0; i < 900; i++) {
    const kind = i % 3;
    const selector = [
      kind === 0 || manufacturers.length === 0 || collections.length === 0
        ? { type: 'product', ids: [pick(products), pick(products)] }
        : kind === 1
          ? { type: 'manufacturer', ids: [pick(manufacturers)] }
          : { type: 'collection', ids: [pick(collections)] },
    ];
    out.push({
      name: `bench-cart catalogue ${i}`,
      priority: int(0, 5),
      combines_with: productOnly,
      conditions: [{ type: 'lines', selector }],
      actions: [rand() < 0.7 ? { type: 'percent_off_lines', percent: int(5, 30) } : { type: 'fixed_off_lines', amount: int(1, 5) }],
    });
  }
  for (let i = 0; i < 80; i++) {
    out.push({
      name: `bench-cart order ${i}`,
      priority: int(0, 5),
      combines_with: orderOnly,
      conditions: [{ type: 'min_subtotal', amount: int(50, 2000) }, ...(i % 4 === 0 ? [{ type: 'customer_signed_in' }] : [])],
      actions: [i % 2 ? { type: 'percent_off_order', percent: int(2, 15) } : { type: 'fixed_off_order', amount: int(5, 50) }],
    });
  }
  for (let i = 0; i < 20; i++) {
    out.push({
      name: `bench-cart buy X get Y ${i}`,
      priority: int(0, 5),
      combines_with: productOnly,
      conditions: [],
      actions: [
        {
          type: 'buy_x_get_y',
          buy: [manufacturers.length ? { type: 'manufacturer', ids: [pick(manufacturers)] } : { type: 'product', ids: [pick(products)] }],
          buy_quantity: int(2, 3),
          get: [collections.length ? { type: 'collection', ids: [pick(collections)] } : { type: 'product', ids: [pick(products)] }],
          get_quantity: 1,
          percent: 100,
          max_applications: 2,
        },
      ],
    });
  }
  return out;
}

/** The cart's variants and the selectors' ids; removes an earlier run's promotions. */
async function prepare(b, url, meta) {
  const t = meta.tenant_id;
  // 100 visible, orderable variants of distinct products for the cart (tracked stock is not needed for a read)
  const variants = await b.query(
    url,
    `SELECT DISTINCT ON (vs.product_id) vs.variant_id AS id, vs.product_id FROM variant_search vs JOIN variants v ON v.id = vs.variant_id
     WHERE vs.tenant_id = $1 AND v.quantity_min = 1 AND v.quantity_increment = 1 AND (NOT v.track_inventory OR v.allow_backorder
       OR (SELECT sum(delta) FROM stock_movements sm WHERE sm.tenant_id = vs.tenant_id AND sm.variant_id = vs.variant_id) > 10)
     ORDER BY vs.product_id, vs.variant_id`,
    [t],
  );
  const { pick } = random(7);
  const cart = [];
  const seen = new Set();
  while (cart.length < 100 && seen.size < variants.length) {
    const v = pick(variants);
    if (seen.has(v.id)) continue;
    seen.add(v.id);
    cart.push(v);
  }
  if (cart.length < 100) throw new Error(`only ${cart.length} orderable variants for the 100-line cart`);
  // selectors: the cart's products among others, so lines do match (as a real shop's offers match what sells)
  const products = [...cart.map((v) => v.product_id), ...variants.slice(0, 200).map((v) => v.product_id)];
  const ids = async (sql) => (await b.query(url, sql, [t])).map((r) => r.id);
  const manufacturers = await ids(`SELECT DISTINCT manufacturer_id AS id FROM products WHERE tenant_id = $1 AND manufacturer_id IS NOT NULL LIMIT 500`);
  const collections = await ids(`SELECT id FROM collections WHERE tenant_id = $1 LIMIT 200`);
  await b.query(url, `DELETE FROM promotions WHERE tenant_id = $1 AND name LIKE 'bench-cart %'`, [t]);
  const mix = promotionMix(products, manufacturers, collections);
  // written by SQL (1,000 admin calls would take long): checked with the admin API's own parsers first
  const { parseActions, parseConditions } = await import('../dist/src/promotions/promotion-rules.js');
  for (const p of mix) {
    parseConditions(p.conditions);
    parseActions(p.actions);
  }
  return { cart, mix, counts: { promotions: mix.length, manufacturers: manufacturers.length, collections: collections.length } };
}

/** One copy of the mix per window: live from `from` to `to` (the server's cache reloads exactly at a start or end). */
async function insertWindows(b, url, meta, mix, windows) {
  for (const [k, [from, to]] of windows.entries())
    await b.query(
      url,
      `INSERT INTO promotions (tenant_id, name, enabled, priority, combines_with, conditions, actions, starts_at, ends_at)
       SELECT $1, 'bench-cart w' || $3 || ' ' || (p->>'name'), true, (p->>'priority')::int, p->'combines_with', p->'conditions', p->'actions', $4, $5
       FROM jsonb_array_elements($2::jsonb) p`,
      [meta.tenant_id, JSON.stringify(mix), String(k), new Date(from), new Date(to)],
    );
}

/** A guest cart of these variants; returns its visitor cookie. */
async function fillCart(base, token, cart) {
  let cookie = '';
  for (const v of cart) {
    const r = await fetch(`${base}/api/2026-04-01/cart/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ article_id: v.id, quantity: 1 + (cart.indexOf(v) % 4) }),
    });
    const set = r.headers.get('set-cookie');
    if (set && !cookie) cookie = set.split(';')[0];
    if (!r.ok) throw new Error(`POST /cart/items: ${r.status} ${(await r.text()).slice(0, 200)}`);
    await r.arrayBuffer().catch(() => undefined);
  }
  return cookie;
}

/** The process's CPU time so far (user + system, ms; Linux /proc, 100 ticks per second), null elsewhere. */
export function cpuMs(pid) {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return null;
  }
}

export async function casePromotionsCart(b, url, base, meta, serverPid) {
  const token = meta.storefront_token;
  const { cart, mix, counts } = await prepare(b, url, meta);
  const cookie = await fillCart(base, token, cart);
  const headers = { authorization: `Bearer ${token}`, cookie };
  const cartUrl = `${base}/api/2026-04-01/cart`;
  const read = async () => {
    const r = await fetch(cartUrl, { headers });
    const body = await r.json().catch(() => ({}));
    if (!r.ok || !body.cart) throw new Error(`GET /cart: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.cart;
  };
  // phases without and with the promotions in turn (PAIRS with, PAIRS + 1 without), each a time window: the
  // promotions of window k start and end with phase 2k + 1. The first "with" phase starts 31 s after the insert at
  // the earliest, since a cache entry loaded before it lives up to 30 s.
  const phase = (b.WARMUP + b.DURATION + 2) * 1000;
  const first = Date.now() + Math.max(0, TTL_WAIT_MS - phase);
  const at = (i) => first + i * phase;
  await insertWindows(
    b,
    url,
    meta,
    mix,
    Array.from({ length: PAIRS }, (_, k) => [at(2 * k + 1), at(2 * k + 2)]),
  );
  b.log(
    `case promotions-cart: ${counts.promotions} promotions x ${PAIRS} windows over ${counts.manufacturers} producers and ${counts.collections} collections; a 100-line guest cart; ${2 * PAIRS + 1} phases of ${phase / 1000} s`,
  );
  const runs = [];
  for (let i = 0; i < 2 * PAIRS + 1; i++) {
    const wait = at(i) + 300 - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const label = i % 2 ? 'with 1,000 promotions' : 'without promotions';
    const c = await read();
    const discounts = c.discounts?.length ?? 0;
    const promoted = c.items.filter((l) => l.promotions?.length).length;
    if (i % 2 === 1 && discounts === 0 && promoted === 0) b.log('  WARNING: no promotion applied in a "with" phase');
    if (i % 2 === 0 && (discounts > 0 || promoted > 0)) b.log('  WARNING: promotions applied in a "without" phase');
    const started = Date.now();
    if (b.WARMUP > 0) await b.runPaths(base, ['/api/2026-04-01/cart'], { duration: b.WARMUP, token, headers });
    const cpu0 = cpuMs(serverPid);
    const r = b.figures(label, await b.runPaths(base, ['/api/2026-04-01/cart'], { duration: b.DURATION, token, headers }));
    const cpu1 = cpuMs(serverPid);
    // on a loaded machine a phase can run past its window (slow answers, a late start): it then measured both kinds
    r.slipped = started < at(i) || Date.now() > at(i + 1);
    if (r.slipped)
      b.log(
        `  WARNING: phase ${i + 1} ran outside its window (${started - at(i)} ms after its start, ${Date.now() - at(i + 1)} ms past its end): left out of the ratio`,
      );
    // the server's CPU per read: what the promotions add, less blurred by other processes than req/s
    r.cpu_per_read_ms = cpu0 === null || cpu1 === null || !r.requests ? null : Math.round(((cpu1 - cpu0) / r.requests) * 100) / 100;
    b.log(
      `  phase ${i + 1} ${label}: ${c.items.length} lines, ${promoted} with promotions, ${discounts} discounts: ${r.rps} req/s, p99 ${r.p99_ms} ms, server CPU ${r.cpu_per_read_ms} ms per read`,
    );
    runs.push({ ...r, with: i % 2 === 1, lines_promoted: promoted, discounts });
  }
  const mean = (list) => list.reduce((a, r) => a + r.rps, 0) / list.length;
  const cpuMean = (list) =>
    list.some((r) => r.cpu_per_read_ms === null) ? null : Math.round((list.reduce((a, r) => a + r.cpu_per_read_ms, 0) / list.length) * 100) / 100;
  // phases that ran outside their window measured both kinds: left out (all of a kind slipped: kept, and flagged)
  const kept = (list) => (list.some((r) => !r.slipped) ? list.filter((r) => !r.slipped) : list);
  const on = kept(runs.filter((r) => r.with));
  const off = kept(runs.filter((r) => !r.with));
  const onRps = mean(on);
  const offRps = mean(off);
  return {
    name: 'GET /cart, 100 lines, 1,000 promotions (900 catalogue, 80 order, 20 buy-X-get-Y) vs none',
    rps: Math.round(onRps * 10) / 10,
    p50_ms: Math.max(...on.map((r) => r.p50_ms)),
    p99_ms: Math.max(...on.map((r) => r.p99_ms)),
    off_rps: Math.round(offRps * 10) / 10,
    off_p99_ms: Math.max(...off.map((r) => r.p99_ms)),
    ratio: Math.round((onRps / offRps) * 100) / 100,
    cpu_per_read_ms: cpuMean(on),
    off_cpu_per_read_ms: cpuMean(off),
    // each "with" phase against the mean of the phases either side of it (null where one of them slipped)
    pair_ratios: Array.from({ length: PAIRS }, (_, k) => [runs[2 * k], runs[2 * k + 1], runs[2 * k + 2]]).map(([x, r, y]) =>
      x.slipped || r.slipped || y.slipped ? null : Math.round((r.rps / ((x.rps + y.rps) / 2)) * 100) / 100,
    ),
    slipped_phases: runs.flatMap((r, i) => (r.slipped ? [i + 1] : [])),
    non_2xx: runs.reduce((a, r) => a + r.non_2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    runs,
  };
}

/** The table line of this case, with its target. */
export function promotionsCartLines(results) {
  const r = results['promotions-cart'];
  if (!r) return [];
  const ok = r.ratio >= 0.85 && r.non_2xx === 0 && r.errors === 0;
  return [
    `promotions-cart  with ${r.rps} req/s (p50 ${r.p50_ms} / p99 ${r.p99_ms} ms), without ${r.off_rps} req/s (p99 ${r.off_p99_ms} ms): ratio ${r.ratio} (>= 0.85; per pair ${r.pair_ratios.map((x) => x ?? 'slipped').join(', ')}${r.slipped_phases.length ? `; phases ${r.slipped_phases.join(', ')} slipped` : ''}); server CPU per read ${r.cpu_per_read_ms} ms with, ${r.off_cpu_per_read_ms} ms without: ${ok ? 'met' : 'MISSED'}`,
  ];
}
