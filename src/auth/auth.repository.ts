import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { managerOf, repoOf } from '../common/db/tenant-scope.js';
import { AccessToken, type TokenTier } from './entities/access-token.entity.js';
import { StaffUser } from './entities/staff-user.entity.js';

/** A live (not revoked) staff access token with its issuer's permissions, as `AuthService.resolve` reads it. */
export interface TokenPrincipalRow {
  id: string;
  tenant_id: string;
  tier: TokenTier;
  prefix: string;
  scopes: string[];
  issuer_id: string;
  permissions: string[];
  last_used_at: Date | null;
}

/** What a new access token is stored as (the token itself only as its hash). */
export interface NewAccessToken {
  issuerId: string;
  tier: TokenTier;
  prefix: string;
  label: string;
  scopes: string[];
  tokenHash: Buffer;
}

/** The auth module's statements: `staff_users` and `access_tokens` (issue 36: services hold rules, not SQL). */
@Injectable()
export class AuthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The live token with this hash and its issuer's permissions (one indexed lookup), or undefined. */
  async tokenByHash(hash: Buffer): Promise<TokenPrincipalRow | undefined> {
    const rows: TokenPrincipalRow[] = await this.dataSource.query(
      `SELECT t.id, t.tenant_id, t.tier, t.prefix, t.scopes, t.issuer_id, s.permissions, t.last_used_at
           FROM access_tokens t JOIN staff_users s ON s.id = t.issuer_id AND s.tenant_id = t.tenant_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL`,
      [hash],
    );
    return rows[0];
  }

  /** Records the token's use unless it was recorded within the last minute. */
  async touchToken(tokenId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE access_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')`,
      [tokenId],
    );
  }

  /** Stores a new token of the context's shop (in its open transaction, if any). */
  insertToken(ctx: RequestContext, token: NewAccessToken): Promise<AccessToken> {
    const repo = repoOf(ctx, this.dataSource, AccessToken);
    return repo.save(repo.create({ tenantId: ctx.tenantId, ...token }));
  }

  /** The shop's tokens not revoked, newest first (ties by id, descending). */
  activeTokens(tenantId: string): Promise<AccessToken[]> {
    return this.dataSource
      .getRepository(AccessToken)
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenant AND t.revoked_at IS NULL', { tenant: tenantId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .getMany();
  }

  /** Revokes the shop's token `id`; false when it has no such live token. */
  async revokeToken(tenantId: string, id: string): Promise<boolean> {
    const result: unknown[] = await this.dataSource.query(
      `UPDATE access_tokens SET revoked_at = now(), updated_at = now() WHERE id = $1 AND tenant_id = $2 AND revoked_at IS NULL RETURNING id`,
      [id, tenantId],
    );
    const rows = Array.isArray(result[0]) ? (result[0] as unknown[]) : result;
    return rows.length > 0;
  }

  /** Whether the context's shop has a staff user with this (lower-case) email, in its open transaction if any. */
  async staffEmailTaken(ctx: RequestContext, email: string): Promise<boolean> {
    const rows: unknown[] = await managerOf(ctx, this.dataSource).query(`SELECT 1 FROM staff_users WHERE tenant_id = $1 AND lower(email) = $2`, [
      ctx.tenantId,
      email,
    ]);
    return rows.length > 0;
  }

  /** Stores a new staff user of the context's shop (in its open transaction, if any). */
  insertStaff(ctx: RequestContext, staff: { email: string; permissions: string[]; isOwner: boolean }): Promise<StaffUser> {
    const manager = managerOf(ctx, this.dataSource);
    return manager.save(manager.create(StaffUser, { tenantId: ctx.tenantId, ...staff }));
  }

  /** Saves a changed staff user (outside any transaction). */
  saveStaff(staff: StaffUser): Promise<StaffUser> {
    return this.dataSource.manager.save(staff);
  }

  /** The shop's staff user with this email (compared without case), or null. */
  staffByEmail(tenantId: string, email: string): Promise<StaffUser | null> {
    return this.dataSource
      .getRepository(StaffUser)
      .createQueryBuilder('s')
      .where('s.tenant_id = :tenant AND lower(s.email) = lower(:email)', { tenant: tenantId, email })
      .getOne();
  }

  /** The shop's staff user with this id, or null. */
  staffById(tenantId: string, id: string): Promise<StaffUser | null> {
    return this.dataSource.getRepository(StaffUser).findOne({ where: { id, tenantId } });
  }
}
