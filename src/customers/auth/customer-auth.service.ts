import { Injectable, Logger, Optional } from '@nestjs/common';
import { AuthService, Principal } from '../../auth/index.js';
import { PrincipalCache } from '../../common/auth/principal-cache.js';
import { generateToken } from '../../common/auth/token-hash.js';
import { CacheBus } from '../../common/cluster/cache-bus.js';
import type { RequestContext } from '../../common/context/request-context.js';
import { isUniqueViolation } from '../../common/db/tenant-scope.js';
import { AppError } from '../../common/http/app-error.js';
import { DomainEvents } from '../../events/index.js';
import { TenancyService } from '../../tenancy/index.js';
import { Extensions, TokenResolver } from '../../extensions/index.js';
import { CustomerAccountService } from '../customer-account.service.js';
import { CustomerAccessTokenDto, ProfileDto, RegisterCustomerDto } from '../dto/account.dto.js';
import type { OneTimePurpose } from '../entities/customer-one-time-token.entity.js';
import { MailMessage, MailTransport } from '../mail/mail-transport.js';
import { CustomerAuthRepository } from './customer-auth.repository.js';
import { AppConfig } from '../../config/app-config.js';
import { DEFAULT_SCRYPT_COST, hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import { VisitorCarryOverService } from './visitor-carry-over.service.js';

export const CUSTOMER_TOKEN_PREFIX = 'vnscat';
const DAY_MS = 24 * 3600 * 1000;
export const CUSTOMER_TOKEN_TTL_MS = 30 * DAY_MS;
/** Lifetimes of the mailed codes. */
export const ONE_TIME_TTL_MS: Record<OneTimePurpose, number> = { confirm_email: 3 * DAY_MS, reset_password: 2 * 3600 * 1000 };
const ONE_TIME_PREFIX: Record<OneTimePurpose, string> = { confirm_email: 'vnsccf', reset_password: 'vnscrp' };

/**
 * How long a resolved shopper token is reused without asking the database (as staff tokens, `AuthService`). Revoking
 * it, its expiry being changed, and the account being disabled or deleted notify every instance at commit (the
 * triggers of migration `AuthNotify`, topic `customer_auth`); without a listening bus nothing is kept.
 */
const PRINCIPAL_CACHE_MS = 5_000;
const PRINCIPAL_CACHE_MAX = 10_000;
/** Cache-bus topic: a tenant's shopper tokens or accounts changed. */
export const CUSTOMER_AUTH_CACHE_TOPIC = 'customer_auth';

const invalidCredentials = () => AppError.unauthorized('the email or the password is wrong', 'invalid_credentials');
const invalidToken = () => AppError.unprocessable('token is unknown, expired or already used', 'invalid_token');
const emailTaken = () => AppError.unprocessable('email is already used by another customer');

/**
 * Shopper credentials (CONTRACT 3): registration, sign-in with `vnscat_` tokens, sign-out, email confirmation and
 * password reset by mailed single-use codes. The tokens resolve through AuthService's resolver hook.
 */
@Injectable()
export class CustomerAuthService {
  private readonly logger = new Logger(CustomerAuthService.name);
  /** Resolved shopper tokens by token hash (see `PRINCIPAL_CACHE_MS`). */
  private readonly principals: PrincipalCache<Principal>;
  /** scrypt cost of new password hashes (log2 N): `PASSWORD_SCRYPT_COST`. */
  private readonly scryptCost: number;

  constructor(
    private readonly repo: CustomerAuthRepository,
    private readonly auth: AuthService,
    private readonly tenancy: TenancyService,
    private readonly accounts: CustomerAccountService,
    private readonly extensions: Extensions,
    private readonly carryOver: VisitorCarryOverService,
    private readonly events: DomainEvents,
    @Optional() private readonly bus?: CacheBus,
    @Optional() config?: AppConfig,
  ) {
    this.scryptCost = config?.PASSWORD_SCRYPT_COST ?? DEFAULT_SCRYPT_COST;
    this.principals = new PrincipalCache(PRINCIPAL_CACHE_MS, PRINCIPAL_CACHE_MAX, () => this.bus?.listening === true);
    bus?.subscribe(CUSTOMER_AUTH_CACHE_TOPIC, (tenantId) => this.forget(tenantId));
  }
  /** The mail transport: an extension point, the last registered wins (built in: the customers' `MailModule`). */
  private get mail(): MailTransport {
    return this.extensions.one(MailTransport)!;
  }

  /** Forgets the resolved shopper tokens of a tenant (null: of every tenant, as after a reconnect of the bus). */
  forget(tenantId: string | null): void {
    this.principals.drop(tenantId);
  }

  /** A live (unrevoked, unexpired) shopper token, by hash; reused for up to `PRINCIPAL_CACHE_MS` while the bus listens. */
  async resolve(token: string): Promise<Principal | null> {
    const hash = this.auth.hash(token);
    const key = hash.toString('base64');
    const hit = this.principals.get(key);
    if (hit) return hit;
    const epoch = this.principals.begin();
    const row = await this.repo.liveToken(hash);
    if (!row) return null;
    const principal: Principal = Object.freeze({
      kind: 'customer',
      tokenId: row.id,
      tenantId: row.tenant_id,
      customerId: row.customer_id,
      active: row.is_active,
    });
    this.principals.set(key, epoch, row.tenant_id, principal, new Date(row.expires_at).getTime());
    return principal;
  }

  /** A new account (active, unconfirmed) with the names on its billing address; mails a confirmation code. */
  async register(ctx: RequestContext, dto: RegisterCustomerDto): Promise<ProfileDto> {
    const email = dto.email.trim();
    const passwordHash = await hashPassword(dto.password, this.scryptCost);
    const firstName = dto.first_name?.trim() || null;
    const lastName = dto.last_name?.trim() || null;
    let code: string;
    let customerId: string;
    try {
      ({ code, customerId } = await this.repo.transaction(ctx, async (tx) => {
        if (await this.repo.customerByEmail(tx, email)) throw emailTaken();
        const id = await this.repo.insertCustomer(tx, email, passwordHash);
        if (firstName || lastName) await this.repo.addBillingAddress(tx, id, firstName, lastName, email);
        await this.events.emit(tx, 'customer.created', { customer: { id, email, is_active: true, is_email_confirmed: false, type: 'customer' } });
        return { code: await this.issueCode(tx, id, 'confirm_email'), customerId: id };
      }));
    } catch (err) {
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
    this.send(ctx, { to: email, kind: 'confirm_email', subject: 'Confirm your email address', text: confirmText(code), data: { token: code } });
    return this.accounts.profileOf(ctx, customerId);
  }

  /**
   * Email and password to a 30-day `vnscat_` token. An unknown email, an account without a password and a wrong
   * password answer alike (401 `invalid_credentials`) after the same scrypt work. The email confirmation gate (403)
   * is checked only after the password, so it reveals nothing to someone without it.
   */
  async signIn(ctx: RequestContext, email: string, password: string): Promise<CustomerAccessTokenDto> {
    const row = await this.repo.signInRow(ctx, email.trim());
    const ok = row?.password_hash ? await verifyPassword(password, row.password_hash) : await verifyAgainstDummy(password, this.scryptCost);
    if (!row || !ok) throw invalidCredentials();
    const config = await this.tenancy.config(ctx.tenantId);
    if (config.settings.require_email_confirmation && !row.is_email_confirmed) {
      throw AppError.forbidden('the email address is not confirmed yet', 'email_not_confirmed');
    }
    const token = generateToken(CUSTOMER_TOKEN_PREFIX);
    const expiresAt = await this.repo.insertToken(ctx, row.id, this.auth.hash(token), CUSTOMER_TOKEN_TTL_MS);
    if (row.is_active) await this.carryOver.carryOver(ctx, ctx.visitorId, row.id);
    return { access_token: token, expires_at: expiresAt.toISOString() };
  }

  /** Revokes the token the request was made with. */
  async signOut(ctx: RequestContext): Promise<void> {
    if (ctx.actor.type !== 'customer') throw AppError.unauthorized('a customer access token is required');
    await this.repo.revokeToken(ctx, ctx.actor.tokenId);
    // every instance hears of it at commit (trigger); here at once
    this.forget(ctx.tenantId);
  }

  /** Mails a reset code when the email belongs to a customer of the shop; the caller learns nothing either way. */
  async recover(ctx: RequestContext, email: string): Promise<void> {
    const customer = await this.repo.customerByEmail(ctx, email.trim());
    if (!customer) return;
    const code = await this.issueCode(ctx, customer.id, 'reset_password');
    this.send(ctx, { to: customer.email, kind: 'reset_password', subject: 'Reset your password', text: resetText(code), data: { token: code } });
  }

  /**
   * Sets a new password with a reset code. The code is used up, every other reset code of the customer too, and every
   * signed-in session (shopper token) is revoked. The email counts as confirmed: the code arrived in its mailbox.
   */
  async resetPassword(ctx: RequestContext, code: string, password: string): Promise<void> {
    // A cheap look first, so a wrong code costs no scrypt work; the conditional update below decides.
    if (!(await this.findCode(ctx, code, 'reset_password'))) throw invalidToken();
    const passwordHash = await hashPassword(password, this.scryptCost);
    await this.repo.transaction(ctx, async (tx) => {
      const customerId = await this.consumeCode(tx, code, 'reset_password');
      await this.repo.setPassword(tx, customerId, passwordHash);
      await this.repo.useUpCodes(tx, customerId, 'reset_password');
      await this.repo.revokeTokensOf(tx, customerId);
    });
    this.forget(ctx.tenantId);
  }

  /** Marks the email confirmed with a confirmation code (single use). */
  async confirmEmail(ctx: RequestContext, code: string): Promise<void> {
    await this.repo.transaction(ctx, async (tx) => {
      const customerId = await this.consumeCode(tx, code, 'confirm_email');
      await this.repo.confirmEmail(tx, customerId);
    });
  }

  private async issueCode(ctx: RequestContext, customerId: string, purpose: OneTimePurpose): Promise<string> {
    const code = generateToken(ONE_TIME_PREFIX[purpose]);
    await this.repo.insertCode(ctx, customerId, purpose, this.auth.hash(code), ONE_TIME_TTL_MS[purpose]);
    return code;
  }

  private findCode(ctx: RequestContext, code: string, purpose: OneTimePurpose): Promise<boolean> {
    return this.repo.codeIsLive(ctx, this.auth.hash(code.trim()), purpose);
  }

  /** Uses up a live code of the shop and purpose (atomically: two concurrent uses, one winner); 422 otherwise. */
  private async consumeCode(ctx: RequestContext, code: string, purpose: OneTimePurpose): Promise<string> {
    const customerId = await this.repo.consumeCode(ctx, this.auth.hash(code.trim()), purpose);
    if (customerId === null) throw invalidToken();
    return customerId;
  }

  /**
   * Mail leaves after the change is committed and off the request's path (an SMTP round trip would otherwise tell
   * a recover call for a known email from one for an unknown email); a transport failure is logged, never shown.
   */
  private send(ctx: RequestContext, message: MailMessage): void {
    Promise.resolve()
      .then(() => this.mail.send(message))
      .catch((err: unknown) => this.logger.error({ err, tenant_id: ctx.tenantId, kind: message.kind }, 'could not send mail'));
  }
}

function confirmText(code: string): string {
  return `Welcome! Confirm your email address with this code (valid 3 days):\n\n${code}\n\nThe shop sends it as POST /customers/confirm_email {"token": "..."}.\n`;
}

function resetText(code: string): string {
  return `Someone asked to reset the password of your account. If it was you, use this code (valid 2 hours):\n\n${code}\n\nThe shop sends it as POST /customers/reset_password {"token": "...", "password": "..."}. If it was not you, ignore this mail.\n`;
}

/** The shoppers' `vnscat_` tokens, as a `TokenResolver` extension provider of the customers module. */
@Injectable()
export class CustomerTokenResolver extends TokenResolver {
  readonly prefix = CUSTOMER_TOKEN_PREFIX;

  constructor(private readonly customers: CustomerAuthService) {
    super();
  }

  resolve(token: string): Promise<Principal | null> {
    return this.customers.resolve(token);
  }
}
