import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { isUniqueViolation } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { Page } from '../common/paging/page.js';
import { PageRequest, Pager } from '../common/paging/pager.service.js';
import { isCustomerOf } from '../customers/index.js';
import { minorToDecimalString, toMinor } from '../pricing/index.js';
import { TenancyService } from '../tenancy/index.js';
import type {
  BalanceAdjustmentDto,
  BalanceTransactionDto,
  CreateGiftCardDto,
  CreatedGiftCardDto,
  GiftCardBalanceDto,
  GiftCardDto,
  StoreCreditDto,
  UpdateGiftCardDto,
} from './dto/gift-card.dto.js';
import { GiftCardCodes } from './gift-card-codes.js';
import { AccountRow, GiftCardsRepository, LedgerTransactionRow } from './gift-cards.repository.js';
import { adjustmentAllowed } from './ledger.js';

export function mapGiftCard(a: AccountRow): GiftCardDto {
  return {
    id: a.id,
    last_characters: a.last_characters ?? '',
    currency: a.currency_code,
    initial_value: Number(a.initial_value),
    balance: Number(a.balance),
    customer_id: a.customer_id,
    expires_at: a.expires_at ? new Date(a.expires_at).toISOString() : null,
    note: a.note,
    disabled: a.disabled_at !== null,
    created_at: new Date(a.created_at).toISOString(),
    updated_at: a.updated_at ? new Date(a.updated_at).toISOString() : null,
  };
}

export function mapTransaction(t: LedgerTransactionRow): BalanceTransactionDto {
  return {
    id: t.id,
    kind: t.kind,
    amount: Number(t.amount),
    currency: t.currency_code,
    order_id: t.order_id,
    staff_id: t.staff_id,
    note: t.note,
    created_at: new Date(t.created_at).toISOString(),
  };
}

/** Gift cards and store credit for staff, and the shopper's balance check (issue 33). */
@Injectable()
export class GiftCardsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: GiftCardsRepository,
    private readonly codes: GiftCardCodes,
    private readonly tenancy: TenancyService,
    private readonly pager: Pager,
  ) {}

  async list(ctx: RequestContext, page: PageRequest): Promise<Page<GiftCardDto>> {
    const qb = this.repo.giftCardsQuery(managerOf(ctx, this.dataSource), ctx.tenantId);
    const rows = await this.pager.paginateByCreated(qb, page, 'DESC');
    const full = new Map(
      (
        await this.repo.accountsByIds(
          managerOf(ctx, this.dataSource),
          ctx.tenantId,
          rows.items.map((r) => r.id),
        )
      ).map((a) => [a.id, a]),
    );
    return rows.map((r) => mapGiftCard(full.get(r.id)!));
  }

  async get(ctx: RequestContext, id: string): Promise<GiftCardDto> {
    return mapGiftCard(await this.card(ctx, id));
  }

  /** The code is generated (or given), shown once and stored hashed; the initial value is the card's `issue` row. */
  async create(ctx: RequestContext, dto: CreateGiftCardDto): Promise<CreatedGiftCardDto> {
    const { currency, precision } = await this.currency(ctx, dto.currency);
    const value = toMinor(dto.initial_value, precision);
    if (value <= 0) throw AppError.unprocessable(`initial_value must be at least one minor unit of ${currency}`);
    const code = dto.code ?? this.codes.generate();
    const expiresAt = dto.expires_at ? new Date(dto.expires_at) : null;
    try {
      const id = await inTransaction(ctx, this.dataSource, async (tx) => {
        const m = managerOf(tx, this.dataSource);
        if (dto.customer_id) await this.customerOrThrow(tx, dto.customer_id, 'customer_id');
        const accountId = await this.repo.insertAccount(m, tx.tenantId, {
          kind: 'gift_card',
          codeHash: this.codes.hash(code),
          lastCharacters: this.codes.lastCharacters(code),
          currency,
          initialValue: minorToDecimalString(value, precision),
          customerId: dto.customer_id ?? null,
          expiresAt,
          note: dto.note ?? null,
        });
        await this.repo.append(m, tx.tenantId, {
          accountId,
          amount: minorToDecimalString(value, precision),
          currency,
          orderId: null,
          kind: 'issue',
          staffId: staffOf(tx),
          note: dto.note ?? null,
        });
        return accountId;
      });
      return { ...(await this.get(ctx, id)), code };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.unprocessable('code is already the code of another gift card');
      throw err;
    }
  }

  async update(ctx: RequestContext, id: string, dto: UpdateGiftCardDto): Promise<GiftCardDto> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await this.repo.lock(m, tx.tenantId, [id]);
      const a = await this.card(tx, id);
      if (dto.customer_id) await this.customerOrThrow(tx, dto.customer_id, 'customer_id');
      await this.repo.updateAccount(m, tx.tenantId, id, {
        note: dto.note !== undefined ? dto.note : a.note,
        expiresAt: dto.expires_at !== undefined ? (dto.expires_at ? new Date(dto.expires_at) : null) : a.expires_at,
        customerId: dto.customer_id !== undefined ? dto.customer_id : a.customer_id,
        disabledAt: dto.disabled === undefined || dto.disabled === null ? a.disabled_at : dto.disabled ? (a.disabled_at ?? new Date()) : null,
      });
    });
    return this.get(ctx, id);
  }

  /** DELETE: the card is disabled and what is left on it expires (an `expire` row); a disabled card is 404. */
  async remove(ctx: RequestContext, id: string): Promise<void> {
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await this.repo.lock(m, tx.tenantId, [id]);
      const a = await this.card(tx, id);
      if (a.disabled_at) throw AppError.notFound('gift card');
      await this.repo.updateAccount(m, tx.tenantId, id, { note: a.note, expiresAt: a.expires_at, customerId: a.customer_id, disabledAt: new Date() });
      if (Number(a.balance) !== 0) {
        await this.repo.append(m, tx.tenantId, {
          accountId: id,
          amount: minorToDecimalString(-toMinor(a.balance, 4), 4),
          currency: a.currency_code,
          orderId: null,
          kind: 'expire',
          staffId: staffOf(tx),
          note: 'gift card deleted',
        });
      }
    });
  }

  async history(ctx: RequestContext, id: string, kind: 'gift_card' | 'store_credit' = 'gift_card'): Promise<BalanceTransactionDto[]> {
    const m = managerOf(ctx, this.dataSource);
    if (!(await this.repo.account(m, ctx.tenantId, id, kind))) throw AppError.notFound(kind === 'gift_card' ? 'gift card' : 'store credit');
    return (await this.repo.history(m, ctx.tenantId, id)).map(mapTransaction);
  }

  /** A staff adjustment under the card's row lock: never below zero (422 `balance_insufficient`). */
  async adjust(ctx: RequestContext, id: string, dto: BalanceAdjustmentDto): Promise<GiftCardDto> {
    // the shop's currencies are read before the transaction: inside it, a cache miss would wait for a second connection
    const { precision } = await this.currency(ctx, (await this.card(ctx, id)).currency_code);
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await this.repo.lock(m, tx.tenantId, [id]);
      const a = await this.card(tx, id);
      await this.adjustLocked(tx, a, dto, precision);
    });
    return this.get(ctx, id);
  }

  /** POST /admin/customers/{id}/store_credit: issues (or takes off) credit in a currency. */
  async adjustStoreCredit(ctx: RequestContext, customerId: string, dto: BalanceAdjustmentDto): Promise<StoreCreditDto[]> {
    const { currency, precision } = await this.currency(ctx, dto.currency);
    await inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      await this.customerOrThrow(tx, customerId, null);
      const id = await this.repo.storeCreditAccount(m, tx.tenantId, customerId, currency);
      await this.repo.lock(m, tx.tenantId, [id]);
      await this.adjustLocked(tx, (await this.repo.account(m, tx.tenantId, id))!, dto, precision, dto.amount > 0 ? 'issue' : 'adjust');
    });
    return this.storeCredit(ctx, customerId);
  }

  async storeCredit(ctx: RequestContext, customerId: string): Promise<StoreCreditDto[]> {
    await this.customerOrThrow(ctx, customerId, null);
    const rows = await this.repo.customerAccounts(managerOf(ctx, this.dataSource), ctx.tenantId, customerId);
    return rows.map((r) => ({ currency: r.currency_code, balance: Number(r.balance) }));
  }

  /**
   * POST /gift_cards/balance: one hash lookup whatever the code, and the same shape for an unknown, disabled,
   * expired or empty card (balance 0, currency and expiry null), so the answer tells nothing about other codes.
   */
  async balance(ctx: RequestContext, code: string): Promise<GiftCardBalanceDto> {
    const a = await this.repo.accountByCodeHash(managerOf(ctx, this.dataSource), ctx.tenantId, this.codes.hash(code));
    const live = a && !a.disabled_at && (!a.expires_at || new Date(a.expires_at).getTime() > Date.now()) && Number(a.balance) > 0;
    if (!a || !live) return { balance: 0, currency: null, expires_at: null };
    return { balance: Number(a.balance), currency: a.currency_code, expires_at: a.expires_at ? new Date(a.expires_at).toISOString() : null };
  }

  private async adjustLocked(
    tx: RequestContext,
    a: AccountRow,
    dto: BalanceAdjustmentDto,
    precision: number,
    kind: 'issue' | 'adjust' = 'adjust',
  ): Promise<void> {
    const delta = toMinor(dto.amount, precision);
    if (delta === 0) throw AppError.unprocessable('amount must not be zero');
    if (!adjustmentAllowed(toMinor(a.balance, precision), delta))
      throw AppError.unprocessable(`the balance (${a.balance}) cannot go below zero`, 'balance_insufficient');
    await this.repo.append(managerOf(tx, this.dataSource), tx.tenantId, {
      accountId: a.id,
      amount: minorToDecimalString(delta, precision),
      currency: a.currency_code,
      orderId: null,
      kind,
      staffId: staffOf(tx),
      note: dto.note ?? null,
    });
  }

  private async card(ctx: RequestContext, id: string): Promise<AccountRow> {
    const a = await this.repo.account(managerOf(ctx, this.dataSource), ctx.tenantId, id, 'gift_card');
    if (!a) throw AppError.notFound('gift card');
    return a;
  }

  private async customerOrThrow(ctx: RequestContext, customerId: string, member: string | null): Promise<void> {
    if (await isCustomerOf(managerOf(ctx, this.dataSource), ctx.tenantId, customerId)) return;
    if (member) throw AppError.unprocessable(`${member} names no customer of this shop`);
    throw AppError.notFound('customer');
  }

  /** One of the shop's currencies (the default one when none is named): 422 naming `currency` otherwise. */
  private async currency(ctx: RequestContext, code: string | undefined): Promise<{ currency: string; precision: number }> {
    const config = await this.tenancy.config(ctx.tenantId);
    const c = code ? config.currencies.find((x) => x.code === code.toUpperCase()) : config.defaultCurrency;
    if (!c) throw AppError.unprocessable(`currency ${code} is not a currency of this shop`);
    return { currency: c.code, precision: c.precision };
  }
}

function staffOf(ctx: RequestContext): string | null {
  return ctx.actor.type === 'staff' ? ctx.actor.staffId : null;
}
