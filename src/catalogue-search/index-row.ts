/** One row of `variant_search` as the index loads it. */
export interface IndexRow {
  variant_id: string;
  product_id: string;
  position: number;
  created: number;
  title_sort: string;
  rating: number;
  gross: string;
  on_sale: boolean;
  available: boolean;
  on_hand: number;
  sku: string | null;
  manufacturer_id: string | null;
  color_id: string | null;
  region_id: string | null;
  year_id: string | null;
  size_id: string | null;
  country_id: string | null;
  option_ids: string[];
  category_ids: string[];
  /** Own search text (titles in every language, producer, SKU; folded) and the product's handle (issue 35). */
  search_text?: string | null;
  handle?: string | null;
}
