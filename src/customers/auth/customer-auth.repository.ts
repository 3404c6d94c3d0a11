import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../../common/context/request-context.js';
import { returning } from '../../common/db/returning.js';
import { inTransaction, managerOf } from '../../common/db/tenant-scope.js';
import type { OneTimePurpose } from '../entities/customer-one-time-token.entity.js';

/** A live shopper token with its account's state. */
export interface LiveTokenRow {
  id: string;
  tenant_id: string;
  customer_id: string;
  is_active: boolean;
  expires_at: Date;
}

/** What sign-in checks of the account an e-mail address names. */
export interface SignInRow {
  id: string;
  password_hash: string | null;
  is_active: boolean;
  is_email_confirmed: boolean;
}

/** A customer of the shop found by e-mail address. */
export interface CustomerEmailRow {
  id: string;
  email: string;
}

/**
 * The statements of the shoppers' credentials (`CustomerAuthService`): accounts by e-mail, `customer_tokens` and the
 * mailed single-use codes of `customer_one_time_tokens`. Tokens and codes are looked up by their hash only. Each
 * method runs in the context's transaction when one is open.
 */
@Injectable()
export class CustomerAuthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction (reusing an open one) with the context bound to it. */
  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return inTransaction(ctx, this.dataSource, work);
  }

  /** The unrevoked, unexpired shopper token with this hash (any shop), or null. */
  async liveToken(hash: Buffer): Promise<LiveTokenRow | null> {
    const rows: LiveTokenRow[] = await this.dataSource.query(
      `SELECT t.id, t.tenant_id, t.customer_id, c.is_active, t.expires_at FROM customer_tokens t JOIN customers c ON c.id = t.customer_id AND c.tenant_id = t.tenant_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [hash],
    );
    return rows[0] ?? null;
  }

  /** A new active, unconfirmed account of type `customer`; its id. */
  async insertCustomer(ctx: RequestContext, email: string, passwordHash: string): Promise<string> {
    const [customer]: Array<{ id: string }> = await managerOf(ctx, this.dataSource).query(
      `INSERT INTO customers (tenant_id, email, password_hash, is_active, is_email_confirmed, type) VALUES ($1, $2, $3, true, false, 'customer') RETURNING id`,
      [ctx.tenantId, email, passwordHash],
    );
    return customer.id;
  }

  /** Saves the names as the shopper's first address and makes it the default (billing) address. */
  async addBillingAddress(ctx: RequestContext, customerId: string, firstName: string | null, lastName: string | null, email: string): Promise<void> {
    const m = managerOf(ctx, this.dataSource);
    const [address]: Array<{ id: string }> = await m.query(
      `INSERT INTO customer_addresses (tenant_id, customer_id, first_name, last_name, email) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [ctx.tenantId, customerId, firstName, lastName, email],
    );
    await m.query(`UPDATE customers SET default_address_id = $3 WHERE id = $1 AND tenant_id = $2`, [customerId, ctx.tenantId, address.id]);
  }

  /** The account of the shop with this e-mail address (compared without case), for sign-in; or null. */
  async signInRow(ctx: RequestContext, email: string): Promise<SignInRow | null> {
    const rows: SignInRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT id, password_hash, is_active, is_email_confirmed FROM customers WHERE tenant_id = $1 AND lower(email) = lower($2)`,
      [ctx.tenantId, email],
    );
    return rows[0] ?? null;
  }

  /** The customer of the shop with this e-mail address (compared without case), or null. */
  async customerByEmail(ctx: RequestContext, email: string): Promise<CustomerEmailRow | null> {
    const rows: CustomerEmailRow[] = await managerOf(ctx, this.dataSource).query(
      `SELECT id, email FROM customers WHERE tenant_id = $1 AND lower(email) = lower($2)`,
      [ctx.tenantId, email],
    );
    return rows[0] ?? null;
  }

  /** Stores a new shopper token (by hash) living `ttlMs` from now; when it expires. */
  async insertToken(ctx: RequestContext, customerId: string, hash: Buffer, ttlMs: number): Promise<Date> {
    const [saved]: Array<{ expires_at: Date }> = await managerOf(ctx, this.dataSource).query(
      `INSERT INTO customer_tokens (tenant_id, customer_id, token_hash, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond') RETURNING expires_at`,
      [ctx.tenantId, customerId, hash, ttlMs],
    );
    return new Date(saved.expires_at);
  }

  /** Revokes one shopper token of the shop (if not revoked yet). */
  async revokeToken(ctx: RequestContext, tokenId: string): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `UPDATE customer_tokens SET revoked_at = now(), updated_at = now() WHERE id = $1 AND tenant_id = $2 AND revoked_at IS NULL`,
      [tokenId, ctx.tenantId],
    );
  }

  /** Revokes every live token of the shopper. */
  async revokeTokensOf(ctx: RequestContext, customerId: string): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `UPDATE customer_tokens SET revoked_at = now(), updated_at = now() WHERE tenant_id = $1 AND customer_id = $2 AND revoked_at IS NULL`,
      [ctx.tenantId, customerId],
    );
  }

  /** Sets the password hash; the e-mail address counts as confirmed. */
  async setPassword(ctx: RequestContext, customerId: string, passwordHash: string): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `UPDATE customers SET password_hash = $3, is_email_confirmed = true, updated_at = now() WHERE id = $1 AND tenant_id = $2`,
      [customerId, ctx.tenantId, passwordHash],
    );
  }

  /** Marks the e-mail address confirmed (if it is not yet). */
  async confirmEmail(ctx: RequestContext, customerId: string): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `UPDATE customers SET is_email_confirmed = true, updated_at = now() WHERE id = $1 AND tenant_id = $2 AND NOT is_email_confirmed`,
      [customerId, ctx.tenantId],
    );
  }

  /** Stores a new single-use code (by hash) of `purpose`, living `ttlMs` from now. */
  async insertCode(ctx: RequestContext, customerId: string, purpose: OneTimePurpose, hash: Buffer, ttlMs: number): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `INSERT INTO customer_one_time_tokens (tenant_id, customer_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond')`,
      [ctx.tenantId, customerId, purpose, hash, ttlMs],
    );
  }

  /** True when a live (unused, unexpired) code of the shop and purpose has this hash. */
  async codeIsLive(ctx: RequestContext, hash: Buffer, purpose: OneTimePurpose): Promise<boolean> {
    const rows: unknown[] = await managerOf(ctx, this.dataSource).query(
      `SELECT 1 FROM customer_one_time_tokens WHERE token_hash = $1 AND tenant_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > now()`,
      [hash, ctx.tenantId, purpose],
    );
    return rows.length > 0;
  }

  /** Uses up the live code with this hash (one statement: of two concurrent uses one wins); its customer, or null. */
  async consumeCode(ctx: RequestContext, hash: Buffer, purpose: OneTimePurpose): Promise<string | null> {
    const rows = await returning<{ customer_id: string }>(
      managerOf(ctx, this.dataSource),
      `UPDATE customer_one_time_tokens SET used_at = now(), updated_at = now()
        WHERE token_hash = $1 AND tenant_id = $2 AND purpose = $3 AND used_at IS NULL AND expires_at > now()
        RETURNING customer_id`,
      [hash, ctx.tenantId, purpose],
    );
    return rows[0]?.customer_id ?? null;
  }

  /** Uses up every live code of the shopper of `purpose`. */
  async useUpCodes(ctx: RequestContext, customerId: string, purpose: OneTimePurpose): Promise<void> {
    await managerOf(ctx, this.dataSource).query(
      `UPDATE customer_one_time_tokens SET used_at = now(), updated_at = now() WHERE tenant_id = $1 AND customer_id = $2 AND purpose = $3 AND used_at IS NULL`,
      [ctx.tenantId, customerId, purpose],
    );
  }
}
