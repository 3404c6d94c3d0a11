import { AppError } from '../../common/http/app-error.js';
import type { Translations } from '../../common/db/base.entity.js';

/** Hand-written validation of the import body (CONTRACT 6): the first bad member is named by its path. */
export type Json = Record<string, unknown>;

export function bad(path: string, what: string): AppError {
  return AppError.unprocessable(`${path} ${what}`);
}

export function isObj(v: unknown): v is Json {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

export function obj(v: unknown, path: string): Json {
  if (!isObj(v)) throw bad(path, 'must be an object');
  return v;
}

export function optObj(v: unknown, path: string): Json | null {
  return v === undefined || v === null ? null : obj(v, path);
}

export function arr(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw bad(path, 'must be an array');
  return v;
}

export function key(v: unknown, path: string): string {
  if (typeof v !== 'string' || !v.trim() || v.length > 255) throw bad(path, 'must be a non-empty string of at most 255 characters');
  return v;
}

export function str(v: unknown, path: string, max = 100_000): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(path, 'must be a string');
  if (v.length > max) throw bad(path, `must be at most ${max} characters`);
  return v;
}

export function reqStr(v: unknown, path: string, max = 10_000): string {
  const s = str(v, path, max);
  if (s === null || !s.trim()) throw bad(path, 'is required');
  return s;
}

export function num(v: unknown, path: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(path, 'must be a number');
  if (opts.integer && !Number.isInteger(v)) throw bad(path, 'must be an integer');
  if (opts.min !== undefined && v < opts.min) throw bad(path, `must be at least ${opts.min}`);
  if (opts.max !== undefined && v > opts.max) throw bad(path, `must be at most ${opts.max}`);
  return v;
}

export function reqNum(v: unknown, path: string, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
  const n = num(v, path, opts);
  if (n === null) throw bad(path, 'is required');
  return n;
}

export function bool(v: unknown, path: string, fallback: boolean): boolean {
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') throw bad(path, 'must be a boolean');
  return v;
}

/** `{"en": "Red"}` or a plain string in the default language. */
export function trans(v: unknown, path: string, defaultLanguage: string, max = 500_000): Translations {
  if (v === undefined || v === null) return {};
  if (typeof v === 'string') {
    if (v.length > max) throw bad(path, `must be at most ${max} characters`);
    return { [defaultLanguage]: v };
  }
  if (!isObj(v)) throw bad(path, 'must be a string or an object keyed by language code');
  const out: Translations = {};
  for (const [lang, text] of Object.entries(v)) {
    if (!/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?$/.test(lang)) throw bad(`${path}.${lang}`, 'is not a language code');
    if (text === null) continue;
    if (typeof text !== 'string') throw bad(`${path}.${lang}`, 'must be a string');
    if (text.length > max) throw bad(`${path}.${lang}`, `must be at most ${max} characters`);
    out[lang] = text;
  }
  return out;
}

export function strArray(v: unknown, path: string): string[] {
  return arr(v, path).map((x, i) => key(x, `${path}[${i}]`));
}

export function money(v: unknown, path: string): number | null {
  const n = num(v, path, { min: 0, max: 1e9 });
  if (n === null) return null;
  return n;
}

export function date(v: unknown, path: string): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || Number.isNaN(Date.parse(v))) throw bad(path, 'must be an ISO 8601 date-time');
  return new Date(v).toISOString();
}

/** A decimal string with at most 4 fraction digits (for numeric columns). */
export function dec(n: number | null, digits = 4): string | null {
  if (n === null) return null;
  return Number(n.toFixed(digits)).toString();
}

/** Refuses a key used twice within one list. */
export function uniqueKeys(keys: string[], path: string): void {
  const seen = new Set<string>();
  keys.forEach((k, i) => {
    if (seen.has(k)) throw bad(`${path}[${i}].key`, `duplicates the key "${k}"`);
    seen.add(k);
  });
}
