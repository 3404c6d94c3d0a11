import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { createHash } from 'node:crypto';
import { AuthService } from '../../auth/index.js';
import { AppConfig } from '../../config/app-config.js';
import { RequestContext } from '../../common/context/request-context.js';
import { AppError } from '../../common/http/app-error.js';
import { DomainEvents } from '../../events/index.js';
import { Extensions } from '../../extensions/index.js';
import { TenancyService } from '../../tenancy/index.js';
import { CustomerAccountService } from '../customer-account.service.js';
import type { OneTimePurpose } from '../entities/customer-one-time-token.entity.js';
import { MailTransport, MemoryMailTransport } from '../mail/mail-transport.js';
import { CustomerAuthRepository, type CustomerEmailRow, type LiveTokenRow, type SignInRow } from './customer-auth.repository.js';
import { CustomerAuthService } from './customer-auth.service.js';
import { hashPassword } from './password.js';
import { VisitorCarryOverService } from './visitor-carry-over.service.js';

const TENANT = '00000000-0000-0000-0000-000000000001';

interface FakeCustomer {
  id: string;
  email: string;
  password_hash: string | null;
  is_active: boolean;
  is_email_confirmed: boolean;
  billing: { first: string | null; last: string | null } | null;
}
interface FakeToken {
  id: string;
  customerId: string;
  hash: string;
  revoked: boolean;
}
interface FakeCode {
  customerId: string;
  purpose: OneTimePurpose;
  hash: string;
  used: boolean;
}

/** Accounts, tokens and codes of one shop in memory (codes never expire here). */
class FakeAuthRepository {
  customers: FakeCustomer[] = [];
  tokens: FakeToken[] = [];
  codes: FakeCode[] = [];
  private seq = 0;

  transaction<R>(ctx: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(ctx);
  }
  liveToken(hash: Buffer): Promise<LiveTokenRow | null> {
    const t = this.tokens.find((x) => x.hash === hash.toString('hex') && !x.revoked);
    const c = t && this.customers.find((x) => x.id === t.customerId);
    return Promise.resolve(
      t && c ? { id: t.id, tenant_id: TENANT, customer_id: c.id, is_active: c.is_active, expires_at: new Date(Date.now() + 60_000) } : null,
    );
  }
  insertCustomer(_ctx: RequestContext, email: string, passwordHash: string): Promise<string> {
    const id = `cu${++this.seq}`;
    this.customers.push({ id, email, password_hash: passwordHash, is_active: true, is_email_confirmed: false, billing: null });
    return Promise.resolve(id);
  }
  addBillingAddress(_ctx: RequestContext, customerId: string, first: string | null, last: string | null): Promise<void> {
    this.byId(customerId).billing = { first, last };
    return Promise.resolve();
  }
  private byEmail(email: string): FakeCustomer | undefined {
    return this.customers.find((c) => c.email.toLowerCase() === email.toLowerCase());
  }
  private byId(id: string): FakeCustomer {
    return this.customers.find((c) => c.id === id)!;
  }
  signInRow(_ctx: RequestContext, email: string): Promise<SignInRow | null> {
    const c = this.byEmail(email);
    return Promise.resolve(c ? { id: c.id, password_hash: c.password_hash, is_active: c.is_active, is_email_confirmed: c.is_email_confirmed } : null);
  }
  customerByEmail(_ctx: RequestContext, email: string): Promise<CustomerEmailRow | null> {
    const c = this.byEmail(email);
    return Promise.resolve(c ? { id: c.id, email: c.email } : null);
  }
  insertToken(_ctx: RequestContext, customerId: string, hash: Buffer, ttlMs: number): Promise<Date> {
    this.tokens.push({ id: `t${++this.seq}`, customerId, hash: hash.toString('hex'), revoked: false });
    return Promise.resolve(new Date(Date.UTC(2026, 0, 1) + ttlMs));
  }
  revokeToken(_ctx: RequestContext, tokenId: string): Promise<void> {
    for (const t of this.tokens) if (t.id === tokenId) t.revoked = true;
    return Promise.resolve();
  }
  revokeTokensOf(_ctx: RequestContext, customerId: string): Promise<void> {
    for (const t of this.tokens) if (t.customerId === customerId) t.revoked = true;
    return Promise.resolve();
  }
  setPassword(_ctx: RequestContext, customerId: string, passwordHash: string): Promise<void> {
    Object.assign(this.byId(customerId), { password_hash: passwordHash, is_email_confirmed: true });
    return Promise.resolve();
  }
  confirmEmail(_ctx: RequestContext, customerId: string): Promise<void> {
    this.byId(customerId).is_email_confirmed = true;
    return Promise.resolve();
  }
  insertCode(_ctx: RequestContext, customerId: string, purpose: OneTimePurpose, hash: Buffer): Promise<void> {
    this.codes.push({ customerId, purpose, hash: hash.toString('hex'), used: false });
    return Promise.resolve();
  }
  codeIsLive(_ctx: RequestContext, hash: Buffer, purpose: OneTimePurpose): Promise<boolean> {
    return Promise.resolve(this.codes.some((c) => c.hash === hash.toString('hex') && c.purpose === purpose && !c.used));
  }
  consumeCode(_ctx: RequestContext, hash: Buffer, purpose: OneTimePurpose): Promise<string | null> {
    const c = this.codes.find((x) => x.hash === hash.toString('hex') && x.purpose === purpose && !x.used);
    if (c) c.used = true;
    return Promise.resolve(c?.customerId ?? null);
  }
  useUpCodes(_ctx: RequestContext, customerId: string, purpose: OneTimePurpose): Promise<void> {
    for (const c of this.codes) if (c.customerId === customerId && c.purpose === purpose) c.used = true;
    return Promise.resolve();
  }
}

async function setup(requireConfirmation = false) {
  const repo = new FakeAuthRepository();
  const mail = new MemoryMailTransport();
  const emitted: string[] = [];
  const carried: Array<[string | null, string]> = [];
  const module = await Test.createTestingModule({
    providers: [
      CustomerAuthService,
      // cheap hashes (the rules, not scrypt's cost, are under test here: password.spec.ts covers the default cost)
      { provide: AppConfig, useValue: { PASSWORD_SCRYPT_COST: 10 } },
      { provide: CustomerAuthRepository, useValue: repo },
      { provide: AuthService, useValue: { hash: (t: string) => createHash('sha256').update(t).digest() } },
      { provide: TenancyService, useValue: { config: () => Promise.resolve({ settings: { require_email_confirmation: requireConfirmation } }) } },
      { provide: CustomerAccountService, useValue: { profileOf: (_ctx: RequestContext, id: string) => Promise.resolve({ id }) } },
      // the mail transport is an extension point: this registry answers the spec's memory transport
      { provide: Extensions, useValue: { one: (point: unknown) => (point === MailTransport ? mail : null) } },
      {
        provide: VisitorCarryOverService,
        useValue: { carryOver: (_ctx: RequestContext, v: string | null, c: string) => Promise.resolve(void carried.push([v, c])) },
      },
      { provide: DomainEvents, useValue: { emit: (_ctx: RequestContext, topic: string) => Promise.resolve(void emitted.push(topic)) } },
    ],
  }).compile();
  return { service: module.get(CustomerAuthService), repo, mail, emitted, carried };
}

function shopper(visitorId: string | null = null): RequestContext {
  const ctx = RequestContext.forTenant(TENANT);
  ctx.visitorId = visitorId;
  return ctx;
}

async function failure(p: Promise<unknown>): Promise<{ status: number; code: string | undefined }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, code: err.code };
    throw err;
  }
  throw new Error('expected a failure');
}

/** The code of the newest mail of a kind to an address (mail leaves after the call returns). */
async function mailedCode(mail: MemoryMailTransport, kind: string, to: string): Promise<string> {
  const message = await mail.take(kind, to);
  return (message.data as { token: string }).token;
}

describe('CustomerAuthService: sign-up (repository faked)', () => {
  it('creates an active, unconfirmed account, emits customer.created and mails a confirmation code that works once', async () => {
    const { service, repo, mail, emitted } = await setup();
    await service.register(shopper(), { email: ' ann@example.com ', password: 'correct horse', first_name: ' Ann ', last_name: '' });
    expect(repo.customers).toMatchObject([{ email: 'ann@example.com', is_active: true, is_email_confirmed: false, billing: { first: 'Ann', last: null } }]);
    expect(repo.customers[0].password_hash).not.toContain('correct horse');
    expect(emitted).toEqual(['customer.created']);
    const code = await mailedCode(mail, 'confirm_email', 'ann@example.com');
    expect(code).toMatch(/^vnsccf_/);
    await service.confirmEmail(shopper(), code);
    expect(repo.customers[0].is_email_confirmed).toBe(true);
    expect(await failure(service.confirmEmail(shopper(), code))).toEqual({ status: 422, code: 'invalid_token' });
  });

  it('saves no billing address without names, and refuses an e-mail address in use (any case) with 422', async () => {
    const { service, repo } = await setup();
    await service.register(shopper(), { email: 'bob@example.com', password: 'correct horse' });
    expect(repo.customers[0].billing).toBeNull();
    expect((await failure(service.register(shopper(), { email: 'BOB@example.com', password: 'another one' }))).status).toBe(422);
    expect(repo.customers).toHaveLength(1);
  });
});

describe('CustomerAuthService: sign-in (repository faked)', () => {
  it('an unknown e-mail and a wrong password answer alike: 401 invalid_credentials', async () => {
    const { service } = await setup();
    await service.register(shopper(), { email: 'cat@example.com', password: 'correct horse' });
    expect(await failure(service.signIn(shopper(), 'nobody@example.com', 'correct horse'))).toEqual({ status: 401, code: 'invalid_credentials' });
    expect(await failure(service.signIn(shopper(), 'cat@example.com', 'wrong horse'))).toEqual({ status: 401, code: 'invalid_credentials' });
  });

  it('the confirmation gate (403) is checked only after the password, and only when the shop requires it', async () => {
    const gated = await setup(true);
    await gated.service.register(shopper(), { email: 'dan@example.com', password: 'correct horse' });
    expect(await failure(gated.service.signIn(shopper(), 'dan@example.com', 'wrong horse'))).toEqual({ status: 401, code: 'invalid_credentials' });
    expect(await failure(gated.service.signIn(shopper(), 'dan@example.com', 'correct horse'))).toEqual({ status: 403, code: 'email_not_confirmed' });
    const open = await setup(false);
    await open.service.register(shopper(), { email: 'dan@example.com', password: 'correct horse' });
    expect((await open.service.signIn(shopper(), 'DAN@example.com ', 'correct horse')).access_token).toMatch(/^vnscat_/);
  });

  it('issues a token that resolves until sign-out, and carries the visitor over only for an active account', async () => {
    const { service, repo, carried } = await setup();
    await service.register(shopper(), { email: 'eve@example.com', password: 'correct horse' });
    const { access_token } = await service.signIn(shopper('visitor-1'), 'eve@example.com', 'correct horse');
    expect(carried).toEqual([['visitor-1', 'cu1']]);
    const principal = await service.resolve(access_token);
    expect(principal).toMatchObject({ kind: 'customer', customerId: 'cu1', tenantId: TENANT, active: true });
    const ctx = shopper();
    ctx.actor = { type: 'customer', customerId: 'cu1', tokenId: principal!.tokenId };
    await service.signOut(ctx);
    expect(await service.resolve(access_token)).toBeNull();
    repo.customers[0].is_active = false;
    await service.signIn(shopper('visitor-2'), 'eve@example.com', 'correct horse');
    expect(carried).toHaveLength(1);
  });
});

describe('CustomerAuthService: password reset (repository faked)', () => {
  it('mails a code only for a known address; the caller learns nothing either way', async () => {
    const { service, repo, mail } = await setup();
    await service.recover(shopper(), 'ghost@example.com');
    await new Promise((r) => setTimeout(r, 10));
    expect(mail.outbox).toEqual([]);
    expect(repo.codes).toEqual([]);
  });

  it('a reset code sets the password, confirms the e-mail, uses up every reset code and revokes every session', async () => {
    const { service, repo, mail } = await setup();
    await service.register(shopper(), { email: 'fay@example.com', password: 'old password' });
    const session = await service.signIn(shopper(), 'fay@example.com', 'old password');
    await service.recover(shopper(), 'fay@example.com');
    const first = await mailedCode(mail, 'reset_password', 'fay@example.com');
    await service.recover(shopper(), 'Fay@example.com');
    const second = await mailedCode(mail, 'reset_password', 'fay@example.com');
    await service.resetPassword(shopper(), second, 'new password');
    expect(repo.customers[0].is_email_confirmed).toBe(true);
    expect(await service.resolve(session.access_token)).toBeNull();
    expect(await failure(service.resetPassword(shopper(), first, 'third password'))).toEqual({ status: 422, code: 'invalid_token' });
    expect(await failure(service.signIn(shopper(), 'fay@example.com', 'old password'))).toEqual({ status: 401, code: 'invalid_credentials' });
    expect((await service.signIn(shopper(), 'fay@example.com', 'new password')).access_token).toMatch(/^vnscat_/);
  });

  it('refuses an unknown code, and a confirmation code, before any password work', async () => {
    const { service, repo, mail } = await setup();
    await service.register(shopper(), { email: 'gus@example.com', password: 'old password' });
    const confirm = await mailedCode(mail, 'confirm_email', 'gus@example.com');
    const before = repo.customers[0].password_hash;
    expect(await failure(service.resetPassword(shopper(), 'vnscrp_unknown', 'new password'))).toEqual({ status: 422, code: 'invalid_token' });
    expect(await failure(service.resetPassword(shopper(), confirm, 'new password'))).toEqual({ status: 422, code: 'invalid_token' });
    expect(repo.customers[0].password_hash).toBe(before);
    expect(await hashPassword('x', 10)).not.toBe(before);
  });
});
