import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useParams } from 'wouter';
import { api, apiUrl, ok, type ProductDetail, type Variant } from '../api/client';
import { useLoad, useShop } from '../store';
import { ErrorNote, Loading } from '../ui';
import { categoryHref, productHref } from '../urls';
import { millilitresOf, pricePerLitre } from '../unit-price';
import { Gallery } from './Gallery';
import { openCartDrawer } from '../CartDrawer';
import { checkQuantity, firstQuantity } from '../quantity';
import { RelatedWines } from './RelatedWines';
import { safeHtml } from '../safe-html';
import { lowestPrice30 } from '../promotions';
import { WishlistHeart } from '../wishlist';
import { productDescription, productJsonLd, usePageMeta } from '../seo';

const BASE = import.meta.env.BASE_URL.replace(/\/$/, '');

// the product an old `/products/<uuid>` URL loaded, taken by the `/wines/<handle>` page it is replaced with
let redirected: ProductDetail | null = null;

/** `/wines/<handle>` (GET /products/by_handle?handle=); an old `/products/<uuid>` is replaced by its handle URL. */
export function ProductPage() {
  const { id, handle } = useParams<{ id?: string; handle?: string }>();
  const [, navigate] = useLocation();
  const { t, money, setCart, cart } = useShop();
  // prices net or gross as the shop shows them (the cart carries the setting)
  const net = cart?.show_net_prices ?? false;
  const { data: product, error, loading } = useLoad(async () => {
    if (handle !== undefined) {
      const early = redirected?.handle === handle ? redirected : null;
      redirected = null;
      return early ?? ok(await api.GET('/api/2026-04-01/products/by_handle', { params: { query: { handle } } })).product;
    }
    return ok(await api.GET('/api/2026-04-01/products/{id}', { params: { path: { id: id ?? '' } } })).product;
  }, [id, handle]);
  useEffect(() => {
    if (id === undefined || !product?.handle || product.id !== id) return;
    redirected = product;
    navigate(productHref(product), { replace: true });
  }, [id, product]);
  const [variantId, setVariantId] = useState<string | null>(null);
  const [quantity, setQuantity] = useState(1);
  const [status, setStatus] = useState<'idle' | 'adding' | 'added'>('idle');
  const [addError, setAddError] = useState<unknown>(null);

  const variant = product?.variants.find((v) => v.id === variantId) ?? product?.variants.find((v) => v.available) ?? product?.variants[0];
  useEffect(() => {
    if (variant) setQuantity(firstQuantity(variant.quantity_rule));
    setStatus('idle');
  }, [variant?.id]);

  // meta description (the summary, else title and producer), canonical URL and schema.org Product JSON-LD
  usePageMeta(
    product ? productDescription(product) : null,
    product ? productJsonLd(product, location.origin + BASE + productHref(product), location.origin) : null,
  );

  if (loading && !product) return <Loading />;
  if (error || !product) return <ErrorNote error={error} />;

  const rule = variant?.quantity_rule;
  const valid = Boolean(variant && rule && checkQuantity(quantity, rule));
  const add = async (e: FormEvent) => {
    e.preventDefault();
    if (!variant || !valid) return;
    setStatus('adding');
    setAddError(null);
    try {
      setCart(ok(await api.POST('/api/2026-04-01/cart/items', { body: { article_id: variant.id, quantity } })).cart);
      setStatus('added');
      openCartDrawer();
    } catch (err) {
      setAddError(err);
      setStatus('idle');
    }
  };
  const images = product.images.length > 0 ? product.images : [product.image];
  /** The EU unit price of a variant at a price: "CHF 33.20 / l", or nothing when its size names no volume. */
  const perLitre = (v: Variant, price: number) => {
    const unit = pricePerLitre(price, millilitresOf(v.facets.size?.name ?? v.size ?? v.title));
    return unit === null ? null : (
      <small className="unit-price" data-testid="unit-price">
        <span className="sr-only">{t('unitPrice')}: </span>
        {t('perLitre', { price: money(unit, product.currency) })}
      </small>
    );
  };

  return (
    <article className="product">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/wines">{t('allWines')}</Link>
        {product.category_path.map((c) => (
          <span key={c.id}>
            {' › '}
            <Link href={categoryHref(c)}>{c.name}</Link>
          </span>
        ))}
      </nav>
      <div className="product-layout">
        <Gallery images={images} title={product.title ?? ''} />
        <div className="product-info">
          <h1>{product.title}</h1>
          <WishlistHeart productId={product.id} name={product.title ?? ''} className="on-product" />
          <p className="maker">{product.manufacturer.name}</p>
          {product.rating_count > 0 && (
            <p className="rating" aria-label={`${t('rating')}: ${product.rating} / 5`}>
              {'★'.repeat(Math.round(product.rating))}
              {'☆'.repeat(5 - Math.round(product.rating))} <small>({product.rating_count})</small>
            </p>
          )}
          {/* the shop's own catalogue HTML, sanitised again here before it is rendered */}
          {product.summary_html && <div className="summary" dangerouslySetInnerHTML={{ __html: safeHtml(product.summary_html) }} />}
          <form onSubmit={(e) => void add(e)} className="buy">
            <fieldset className="variants">
              <legend>{t('variant')}</legend>
              {product.variants.map((v) => (
                <label key={v.id} className={v.id === variant?.id ? 'variant selected' : 'variant'}>
                  <input type="radio" name="variant" value={v.id} checked={v.id === variant?.id} onChange={() => setVariantId(v.id)} />
                  <span className="variant-name">
                    {v.facets.size?.name ?? v.size ?? v.title}
                    {v.year && ` · ${v.year}`}
                  </span>
                  <span className="variant-price">
                    {v.compare_at_price > v.price && (
                      <s>
                        <span className="sr-only">{t('regularPrice')} </span>
                        {money(v.compare_at_price, product.currency)}
                      </s>
                    )}{' '}
                    {money(net ? v.net_price : v.price, product.currency)} <small>{net ? t('exclVat') : t('inclVat')}</small>
                    {perLitre(v, net ? v.net_price : v.price)}
                    {/* EU Omnibus: a reduced price names the lowest price of the 30 days before (issue 32; absent: nothing) */}
                    {v.compare_at_price > v.price && lowestPrice30(v) !== null && (
                      <small className="omnibus" data-testid="lowest-price-30">
                        {t('lowestPrice30', { price: money(lowestPrice30(v)!, product.currency) })}
                      </small>
                    )}
                  </span>
                  <span className={v.available ? 'stock in' : 'stock out'}>{v.available ? t('inStock') : t('soldOut')}</span>
                </label>
              ))}
            </fieldset>
            {variant && rule && (
              <>
                <label className="field qty">
                  <span>{t('quantity')}</span>
                  <input
                    type="number"
                    inputMode="numeric"
                    name="quantity"
                    min={firstQuantity(rule)}
                    max={rule.max ?? undefined}
                    step={rule.increment || 1}
                    value={quantity}
                    aria-invalid={!valid}
                    aria-describedby="qty-rule"
                    onChange={(e) => setQuantity(Number(e.target.value))}
                  />
                  <small id="qty-rule">
                    {t('quantityRule', { min: rule.min, step: rule.increment || 1 })}
                    {rule.max !== null ? t('quantityMax', { max: rule.max }) : ''}
                  </small>
                </label>
                {/* on a phone a bar fixed at the bottom of the screen (styles.css) */}
                <div className="buy-bar">
                  <strong className="buy-price">
                    {money(net ? variant.net_price : variant.price, product.currency)} {perLitre(variant, net ? variant.net_price : variant.price)}
                  </strong>
                  <button type="submit" className="primary" disabled={!variant.available || !valid || status === 'adding'}>
                    {variant.available ? t('addToCart') : t('soldOut')}
                  </button>
                </div>
              </>
            )}
            <ErrorNote error={addError} />
            <p role="status" className="added">
              {status === 'added' && (
                <>
                  {t('added')} <Link href="/cart">{t('viewCart')}</Link>
                </>
              )}
            </p>
          </form>
          {variant && (
            <dl className="facts">
              <dt>{t('producer')}</dt>
              <dd>{product.manufacturer.name}</dd>
              {variant.facets.vintage && (
                <>
                  <dt>{t('vintage')}</dt>
                  <dd>{variant.facets.vintage.name ?? variant.year}</dd>
                </>
              )}
              {variant.country && (
                <>
                  <dt>{t('country')}</dt>
                  <dd>
                    {variant.country}
                    {variant.facets.region?.name && `, ${variant.facets.region.name}`}
                  </dd>
                </>
              )}
              {variant.area && (
                <>
                  <dt>{t('area')}</dt>
                  <dd>{variant.area}</dd>
                </>
              )}
              {variant.alcohol_volume !== null && (
                <>
                  <dt>{t('alcohol')}</dt>
                  <dd>{variant.alcohol_volume} %</dd>
                </>
              )}
              {variant.custom_fields.map((f) => (
                <div key={f.key} className="fact-pair">
                  <dt>{f.label}</dt>
                  <dd>{f.value}</dd>
                </div>
              ))}
            </dl>
          )}
          {variant?.factsheet_url && (
            <p>
              <a href={apiUrl(variant.factsheet_url)} target="_blank" rel="noopener" type="application/pdf">
                {t('factsheet')}
              </a>
            </p>
          )}
        </div>
      </div>
      {product.body_html && (
        <section className="description" aria-label={t('details')}>
          <h2>{t('details')}</h2>
          <div dangerouslySetInnerHTML={{ __html: safeHtml(product.body_html) }} />
        </section>
      )}
      <RelatedWines product={product} variant={variant} />
    </article>
  );
}
