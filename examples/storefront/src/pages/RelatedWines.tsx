import { api, ok, type Product, type ProductDetail, type Variant } from '../api/client';
import type { ListQuery } from '../listing';
import { useLoad, useShop } from '../store';
import { ProductCard } from './ProductCard';

const SHOWN = 4;

interface Row {
  key: 'producer' | 'region' | 'grape';
  title: string;
  products: Product[];
}

/**
 * Related wines by the catalogue's own list filters: the same producer (`vendor`), the same region (`region_id`)
 * and the same grape (`custom_field_id` of the variant's `grape` option), each row without the product itself.
 */
export function RelatedWines({ product, variant }: { product: ProductDetail; variant: Variant | undefined }) {
  const { t, money } = useShop();
  const region = variant?.facets.region;
  const grape = variant?.facets.options.find((o) => o.field_key === 'grape');
  const rows = useLoad(async () => {
    const ask = async (key: Row['key'], title: string, filter: ListQuery): Promise<Row> => {
      const r = await api.GET('/api/2026-04-01/products', { params: { query: { ...filter, limit: SHOWN + 1, order: 'rating desc' } } });
      return { key, title, products: ok(r).products.filter((p) => p.id !== product.id).slice(0, SHOWN) };
    };
    const asked: Array<Promise<Row>> = [];
    if (product.manufacturer.id) asked.push(ask('producer', t('sameProducer', { name: product.manufacturer.name ?? '' }), { vendor: product.manufacturer.id }));
    if (region?.id) asked.push(ask('region', t('sameRegion', { name: region.name ?? '' }), { region_id: region.id }));
    if (grape) asked.push(ask('grape', t('sameGrape', { name: grape.name ?? '' }), { custom_field_id: grape.id }));
    return (await Promise.all(asked)).filter((row) => row.products.length > 0);
  }, [product.id, region?.id, grape?.id]);
  if (!rows.data || rows.data.length === 0) return null;
  return (
    <section className="related" aria-labelledby="related-title" data-testid="related">
      <h2 id="related-title">{t('related')}</h2>
      {rows.data.map((row) => (
        <div key={row.key} className="related-row" data-related={row.key}>
          <h3>{row.title}</h3>
          <ul className="grid small">
            {row.products.map((p) => (
              <ProductCard key={p.id} product={p} money={money} />
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
