/**
 * Issue 32's end-to-end cart case (imported by bench.mjs, which passes its helpers in `b`):
 * `promotions-cart`: 1,000 promotions (900 catalogue ones by product, producer or collection, 80 order-level,
 * 20 buy-X-get-Y; all named `bench-cart …`, replaced at every run) and one guest cart of 100 lines. GET /cart is
 * measured (`--connections`, warm-up, `--duration`) with the promotions disabled, enabled, then disabled again;
 * the ratio is the "with" req/s over the mean of the two "without" runs (so a load drift on a shared machine
 * shows). Target: the cart read no more than 15 % slower with the promotions (ratio >= 0.85).
 * The server caches a shop's promotions for at most 30 s, so after each switch the case waits 31 s.
 * Run: `npm run bench -- --products 2000 --cases promotions-cart` (the catalogue size does not matter to it).
 */

const TTL_WAIT_MS = 31_000;
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

async function seed(b, url, meta) {
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
  // selectors: half the catalogue promotions' products among the cart's, so lines do match (as in a real shop's offers)
  const cartProducts = cart.map((v) => v.product_id);
  const all = variants.map((v) => v.product_id);
  const products = [...cartProducts, ...all.slice(0, 200)];
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
  await b.query(
    url,
    `INSERT INTO promotions (tenant_id, name, enabled, priority, combines_with, conditions, actions)
     SELECT $1, p->>'name', false, (p->>'priority')::int, p->'combines_with', p->'conditions', p->'actions'
     FROM jsonb_array_elements($2::jsonb) p`,
    [t, JSON.stringify(mix)],
  );
  return { cart, counts: { promotions: mix.length, manufacturers: manufacturers.length, collections: collections.length } };
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

export async function casePromotionsCart(b, url, base, meta) {
  const token = meta.storefront_token;
  const { cart, counts } = await seed(b, url, meta);
  const cookie = await fillCart(base, token, cart);
  const headers = { authorization: `Bearer ${token}`, cookie };
  const cartUrl = `${base}/api/2026-04-01/cart`;
  const read = async () => {
    const r = await fetch(cartUrl, { headers });
    const body = await r.json().catch(() => ({}));
    if (!r.ok || !body.cart) throw new Error(`GET /cart: ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    return body.cart;
  };
  const toggle = async (enabled) => {
    await b.query(url, `UPDATE promotions SET enabled = $2 WHERE tenant_id = $1 AND name LIKE 'bench-cart %'`, [meta.tenant_id, enabled]);
    b.log(`  promotions ${enabled ? 'enabled' : 'disabled'}: waiting ${TTL_WAIT_MS / 1000} s for the server's promotion cache`);
    await new Promise((r) => setTimeout(r, TTL_WAIT_MS));
  };
  const once = async (label) => {
    const c = await read();
    const discounts = c.discounts?.length ?? 0;
    const promoted = c.items.filter((l) => l.promotions?.length).length;
    b.log(
      `case promotions-cart (${label}): ${c.items.length} lines, ${promoted} with promotions, ${discounts} discounts; warm-up ${b.WARMUP} s, then ${b.DURATION} s`,
    );
    if (b.WARMUP > 0) await b.runPaths(base, ['/api/2026-04-01/cart'], { duration: b.WARMUP, token, headers });
    const r = await b.runPaths(base, ['/api/2026-04-01/cart'], { duration: b.DURATION, token, headers });
    return { ...b.figures(label, r), lines: c.items.length, lines_promoted: promoted, discounts };
  };
  b.log(
    `case promotions-cart: ${counts.promotions} promotions seeded (disabled) over ${counts.manufacturers} producers and ${counts.collections} collections; a 100-line guest cart`,
  );
  const off1 = await once('without promotions');
  await toggle(true);
  const on = await once('with 1,000 promotions');
  await toggle(false);
  const off2 = await once('without promotions, again');
  if (on.discounts === 0 && on.lines_promoted === 0) b.log('  WARNING: no promotion applied to the cart with the promotions enabled');
  const offRps = (off1.rps + off2.rps) / 2;
  const ratio = Math.round((on.rps / offRps) * 100) / 100;
  return {
    name: 'GET /cart, 100 lines, 1,000 promotions (900 catalogue, 80 order, 20 buy-X-get-Y) vs none',
    rps: on.rps,
    p50_ms: on.p50_ms,
    p99_ms: on.p99_ms,
    off_rps: Math.round(offRps * 10) / 10,
    off_p99_ms: Math.max(off1.p99_ms, off2.p99_ms),
    ratio,
    non_2xx: on.non_2xx + off1.non_2xx + off2.non_2xx,
    errors: on.errors + off1.errors + off2.errors,
    runs: { off1, on, off2 },
  };
}

/** The table line of this case, with its target. */
export function promotionsCartLines(results) {
  const r = results['promotions-cart'];
  if (!r) return [];
  const ok = r.ratio >= 0.85 && r.non_2xx === 0 && r.errors === 0;
  return [
    `promotions-cart  with ${r.rps} req/s (p50 ${r.p50_ms} / p99 ${r.p99_ms} ms), without ${r.off_rps} req/s (p99 ${r.off_p99_ms} ms): ratio ${r.ratio} (>= 0.85): ${ok ? 'met' : 'MISSED'}`,
  ];
}
