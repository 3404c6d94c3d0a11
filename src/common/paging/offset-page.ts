import { AppError } from '../http/app-error.js';
import { clampLimit } from './pager.service.js';

/** A limit/offset read (wishlist, customer orders): no cursor, no total. */
export interface OffsetPage {
  limit: number;
  offset: number;
}

/** `limit` clamped to 1..250 (50 when omitted), `offset` a non-negative integer (0 when omitted), else 422. */
export function offsetPage(limit: unknown, offset: unknown): OffsetPage {
  let skip = 0;
  if (offset !== undefined && offset !== '') {
    const n = Number(offset);
    if (typeof offset !== 'string' || !/^\s*\d+\s*$/.test(offset) || !Number.isSafeInteger(n))
      throw AppError.unprocessable('offset must be a non-negative integer');
    skip = n;
  }
  return { limit: clampLimit(limit), offset: skip };
}
