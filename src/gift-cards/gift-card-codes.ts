import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { hashToken } from '../common/auth/token-hash.js';
import { AppConfig } from '../config/app-config.js';

/** Crockford-like alphabet without look-alikes (no 0/O, 1/I/L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Gift card codes: 16 random characters (about 79 bits) in groups of four; only a keyed hash is stored. */
@Injectable()
export class GiftCardCodes {
  constructor(private readonly config: AppConfig) {}

  generate(): string {
    return format(() => randomBytes(32));
  }

  /**
   * The code of a card sold as a product: derived (HMAC with APP_SECRET) from the order line and unit it was bought
   * as, so the mail carrying it can be sent again after a failure while only its hash is stored.
   */
  derive(tenantId: string, orderLineId: string, unit: number): string {
    let round = 0;
    return format(() => createHmac('sha256', this.config.APP_SECRET).update(`gift_card_sale:${tenantId}:${orderLineId}:${unit}:${round++}`).digest());
  }

  /** Codes compare without case, spaces or dashes. */
  normalize(code: string): string {
    return code.toUpperCase().replace(/[\s-]/g, '');
  }

  hash(code: string): Buffer {
    return hashToken(this.config.APP_SECRET, `gift_card:${this.normalize(code)}`);
  }

  lastCharacters(code: string): string {
    return this.normalize(code).slice(-4);
  }
}

/** 16 characters of the alphabet from the given bytes (rejection sampling), in groups of four. */
function format(bytes: () => Buffer): string {
  const out: string[] = [];
  while (out.length < 16) {
    for (const b of bytes()) {
      if (b < 248 && out.length < 16) out.push(ALPHABET[b % ALPHABET.length]); // 248 = 8 × 31: no modulo bias
    }
  }
  return [0, 4, 8, 12].map((i) => out.slice(i, i + 4).join('')).join('-');
}
