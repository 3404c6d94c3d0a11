import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures. A delivery carries `X-Webhook-Timestamp: <unix seconds>` and
 * `X-Webhook-Signature: sha256=<hex>` where hex = HMAC-SHA256(key = the subscription secret as UTF-8 text,
 * message = `${timestamp}.${raw body}`). Receivers recompute it over the raw bytes of the body, compare in constant
 * time, and reject timestamps too far from their clock (for example 5 minutes) against replays.
 */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function verifyWebhook(secret: string, timestamp: string, body: string, signature: string): boolean {
  const expected = Buffer.from(signWebhook(secret, timestamp, body));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** A new subscription secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** Encrypts secrets at rest with a key derived from APP_SECRET (AES-256-GCM), so a database dump alone cannot sign. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = createHmac('sha256', appSecret).update('webhook-secret-box').digest();
  }

  seal(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  }

  open(box: Buffer): string {
    const decipher = createDecipheriv('aes-256-gcm', this.key, box.subarray(0, 12));
    decipher.setAuthTag(box.subarray(12, 28));
    return Buffer.concat([decipher.update(box.subarray(28)), decipher.final()]).toString('utf8');
  }
}
