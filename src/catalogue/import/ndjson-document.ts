import { AppError } from '../../common/http/app-error.js';
import { NdjsonLimits, ndjsonLines, parseNdjsonLine } from '../../common/http/ndjson-body.js';
import { isObj, Json } from './import-input.js';
import { checkCatalogueBody } from './schema-check.js';

/**
 * The products of an import, read batch by batch, so the writer holds one batch: the JSON document's array
 * (`arrayProducts`), or the product lines of an NDJSON file (`scanNdjson`), read again from the file for the writes.
 */
export interface ProductSource {
  /** Products in the import. */
  count: number;
  batches(): AsyncIterable<ProductBatch>;
}

export interface ProductBatch {
  items: unknown[];
  /** Index of the first item in the import's `products` (paths of a 422 count from the whole import). */
  offset: number;
  /** A 422 naming one of these products (`products[12].…`), with the line of that product added (NDJSON). */
  locate(err: unknown): unknown;
}

/** A batch ends at this many products, or once its lines hold this many characters (whichever comes first). */
export const PRODUCT_BATCH = { items: 500, chars: 4 * 1024 * 1024 } as const;

export function arrayProducts(products: unknown[]): ProductSource {
  return {
    count: products.length,
    async *batches() {
      for (let offset = 0; offset < products.length; offset += PRODUCT_BATCH.items)
        yield { items: products.slice(offset, offset + PRODUCT_BATCH.items), offset, locate: (err: unknown) => err };
    },
  };
}

/**
 * The NDJSON form of the import document (the export's `?format=ndjson`): each line is a `CatalogueImportFragment`,
 * an object with one member of the document. Lines naming the same array member are concatenated in order
 * (`{"products": [one]}` per product); any other member (`settings`, `facets`) may appear once.
 */
export interface NdjsonImport {
  /** Every member but `products` (the small kinds), assembled. */
  document: Json;
  /** Per array member of `document`, the line of each element (so an error's path can name its line). */
  lines: Map<string, number[]>;
  /** The products, left in the file: checked against their schema by the scan, read again batch by batch to be written. */
  products: ProductSource;
}

/**
 * Reads an NDJSON import once, line by line (`ndjsonLines`: only the current line is held): checks each line's shape
 * and each product line against the product schema (422 naming the path from the whole import and the line), keeps
 * the other members, and counts the products. Nothing is written; the products are read again from `file` by
 * `products.batches()`, so memory holds one batch of them, never the body.
 */
export async function scanNdjson(file: string, limits: Pick<NdjsonLimits, 'lineBytes' | 'lines'>): Promise<NdjsonImport> {
  const document: Json = {};
  const lines = new Map<string, number[]>();
  let count = 0;
  let products = false;
  for await (const at of ndjsonLines(file, limits)) {
    const line = at.line;
    const fragment = parseNdjsonLine(at);
    if (!isObj(fragment) || Object.keys(fragment).length !== 1)
      throw AppError.unprocessable(`line ${line} must be an object with exactly one member of the import document`);
    const [member, value] = Object.entries(fragment)[0];
    if (member === 'products') {
      if (value === null) continue;
      if (!Array.isArray(value) && products)
        throw AppError.unprocessable(`line ${line}: products appears on an earlier line (only arrays may be split over lines)`);
      products = true;
      try {
        checkCatalogueBody('CatalogueImportDocument', fragment);
      } catch (err) {
        throw atLine(shiftProductPath(err, count), line);
      }
      count += (value as unknown[]).length;
    } else if (Array.isArray(value)) {
      const list = document[member] ?? [];
      if (!Array.isArray(list))
        throw AppError.unprocessable(`line ${line}: ${member} appears on an earlier line as a single value (only arrays may be split over lines)`);
      const where = lines.get(member) ?? [];
      for (const item of value) {
        list.push(item);
        where.push(line);
      }
      document[member] = list;
      lines.set(member, where);
    } else {
      if (member in document) throw AppError.unprocessable(`line ${line}: ${member} appears on an earlier line (only arrays may be split over lines)`);
      document[member] = value;
    }
  }
  return { document, lines, products: { count, batches: () => productBatches(file, limits) } };
}

/** The product lines of the file again, in batches of PRODUCT_BATCH (a line holding many products may span batches). */
async function* productBatches(file: string, limits: Pick<NdjsonLimits, 'lineBytes' | 'lines'>): AsyncGenerator<ProductBatch> {
  let items: unknown[] = [];
  let itemLines: number[] = [];
  let chars = 0;
  let offset = 0;
  const take = (): ProductBatch => {
    const at = itemLines;
    const from = offset;
    const batch = { items, offset: from, locate: (err: unknown) => locateProduct(err, from, at) };
    offset += items.length;
    items = [];
    itemLines = [];
    chars = 0;
    return batch;
  };
  for await (const at of ndjsonLines(file, limits)) {
    const fragment = parseNdjsonLine(at) as Json;
    const value = fragment.products;
    if (!Array.isArray(value)) continue;
    chars += at.text.length;
    for (const item of value) {
      items.push(item);
      itemLines.push(at.line);
      if (items.length >= PRODUCT_BATCH.items) yield take();
    }
    if (chars >= PRODUCT_BATCH.chars && items.length > 0) yield take();
  }
  if (items.length > 0) yield take();
}

const PRODUCT_PATH = /^products\[(\d+)\]/;

/** `products[k]…` of one line's fragment → `products[from + k]…`, its index in the whole import. */
function shiftProductPath(err: unknown, from: number): unknown {
  if (!(err instanceof AppError) || err.status !== 422 || from === 0) return err;
  const message = err.message.replace(PRODUCT_PATH, (_m, k: string) => `products[${from + Number(k)}]`);
  return AppError.unprocessable(message, err.code);
}

function atLine(err: unknown, line: number): unknown {
  if (!(err instanceof AppError) || err.status !== 422) return err;
  return AppError.unprocessable(`${err.message} (line ${line})`, err.code);
}

function locateProduct(err: unknown, from: number, itemLines: number[]): unknown {
  if (!(err instanceof AppError) || err.status !== 422) return err;
  const hit = PRODUCT_PATH.exec(err.message);
  const line = hit ? itemLines[Number(hit[1]) - from] : undefined;
  return line === undefined ? err : atLine(err, line);
}

/** Adds the line to a 422 whose message starts with a path into an array member (`categories[12].name …`). */
export function withLine(err: unknown, lines: Map<string, number[]>): unknown {
  if (!(err instanceof AppError) || err.status !== 422) return err;
  const hit = /^([a-z_]+)\[(\d+)\]/.exec(err.message);
  const line = hit ? lines.get(hit[1])?.[Number(hit[2])] : undefined;
  return line === undefined ? err : AppError.unprocessable(`${err.message} (line ${line})`, err.code);
}
