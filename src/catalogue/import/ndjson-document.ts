import { AppError } from '../../common/http/app-error.js';
import { isObj, Json } from './import-input.js';

/**
 * The NDJSON form of the import document (the export's `?format=ndjson`): each line is a `CatalogueImportFragment`,
 * an object with one member of the document. Lines naming the same array member are concatenated in order
 * (`{"products": [one]}` per product); any other member (`settings`, `facets`) may appear once.
 */
export interface NdjsonDocument {
  document: Json;
  /** Per array member, the line of each element (so an error's path can name its line). */
  lines: Map<string, number[]>;
}

export function documentFromLines(values: unknown[]): NdjsonDocument {
  const document: Json = {};
  const lines = new Map<string, number[]>();
  values.forEach((fragment, i) => {
    const line = i + 1;
    if (!isObj(fragment) || Object.keys(fragment).length !== 1)
      throw AppError.unprocessable(`line ${line} must be an object with exactly one member of the import document`);
    const [member, value] = Object.entries(fragment)[0];
    if (Array.isArray(value)) {
      const list = document[member] ?? [];
      if (!Array.isArray(list))
        throw AppError.unprocessable(`line ${line}: ${member} appears on an earlier line as a single value (only arrays may be split over lines)`);
      const at = lines.get(member) ?? [];
      for (const item of value) {
        list.push(item);
        at.push(line);
      }
      document[member] = list;
      lines.set(member, at);
    } else {
      if (member in document) throw AppError.unprocessable(`line ${line}: ${member} appears on an earlier line (only arrays may be split over lines)`);
      document[member] = value;
    }
  });
  return { document, lines };
}

/** Adds the line to a 422 whose message starts with a path into an array member (`products[12].title …`). */
export function withLine(err: unknown, lines: Map<string, number[]>): unknown {
  if (!(err instanceof AppError) || err.status !== 422) return err;
  const hit = /^([a-z_]+)\[(\d+)\]/.exec(err.message);
  const line = hit ? lines.get(hit[1])?.[Number(hit[2])] : undefined;
  return line === undefined ? err : AppError.unprocessable(`${err.message} (line ${line})`, err.code);
}
