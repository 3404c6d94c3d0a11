import { AppError } from './app-error.js';

/** Deeper JSON than this is refused before validation (class-validator recurses and would overflow the stack). */
export const MAX_JSON_DEPTH = 32;

/**
 * Walks a parsed request value without recursion: 422 when it nests deeper than MAX_JSON_DEPTH, or when a string or a
 * key holds a NUL character (PostgreSQL text cannot store one), naming the member (`shipping_address.street`).
 */
export function checkJsonShape(value: unknown, root = ''): void {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) throw AppError.unprocessable(`${path || 'the body'}: must not contain NUL characters`);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_JSON_DEPTH) throw AppError.unprocessable(`${path || 'the body'}: nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
      const member = path ? `${path}.${k}` : k;
      if (k.includes('\u0000')) throw AppError.unprocessable(`${path || 'the body'}: a member name must not contain NUL characters`);
      stack.push({ v: item, path: member, depth: depth + 1 });
    }
  }
}
