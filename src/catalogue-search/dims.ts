/** Dimension numbers: the index in FACET_KEYS (SPEC order), also the bit of the dimension in a failure mask. */
export const DIM = { manufacturers: 0, categories: 1, colors: 2, sizes: 3, years: 4, countries: 5, regions: 6, custom_fields: 7 } as const;
export const B_CAT = 1 << DIM.categories;
export const B_MAN = 1 << DIM.manufacturers;
export const B_OPT = 1 << DIM.custom_fields;
/** The bit of the price bounds in a failure mask. */
export const B_PRICE = 1 << 8;
/** The single-valued variant dimensions and their variant_search column. */
export const VARIANT_DIM_COLUMNS: Array<[number, string]> = [
  [DIM.colors, 'color_id'],
  [DIM.sizes, 'size_id'],
  [DIM.years, 'year_id'],
  [DIM.countries, 'country_id'],
  [DIM.regions, 'region_id'],
];
