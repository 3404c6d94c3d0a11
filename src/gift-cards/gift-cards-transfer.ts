import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RequestContext } from '../common/context/request-context.js';
import { inTransaction, managerOf } from '../common/db/tenant-scope.js';
import { AppError } from '../common/http/app-error.js';
import { customerEmails, customerIdsByEmail } from '../customers/index.js';
import { TenancyService } from '../tenancy/index.js';
import type { GiftCardExportDto, GiftCardImportDto, StoreCreditExportDto, StoreCreditImportDto } from './dto/gift-card-transfer.dto.js';
import type { LedgerTransactionRow } from './gift-cards.repository.js';
import { GiftCardsRepository } from './gift-cards.repository.js';

/**
 * Export and import of gift cards (issue 33): codes leave the service only as their keyed hashes (base64), so an
 * export moves cards between shops of installations that share `APP_SECRET`; each card carries its whole ledger.
 * Import is an upsert by hash: a card already present is left as it is (its ledger is never rewritten).
 */
@Injectable()
export class GiftCardsTransfer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly repo: GiftCardsRepository,
    private readonly tenancy: TenancyService,
  ) {}

  async export(ctx: RequestContext): Promise<GiftCardExportDto[]> {
    const m = managerOf(ctx, this.dataSource);
    const cards = await this.repo.exportRows(m, ctx.tenantId);
    const rows = await this.repo.ledgerOfKind(m, ctx.tenantId, 'gift_card');
    return cards.map((c) => ({
      code_hash: c.code_hash.toString('base64'),
      last_characters: c.last_characters ?? '',
      currency: c.currency_code,
      initial_value: Number(c.initial_value),
      customer_id: c.customer_id,
      expires_at: c.expires_at ? new Date(c.expires_at).toISOString() : null,
      note: c.note,
      disabled: c.disabled_at !== null,
      created_at: new Date(c.created_at).toISOString(),
      transactions: exportRows(rows, c.id),
    }));
  }

  /** Every customer's store credit per currency, with its ledger; customers are named by e-mail. */
  async exportStoreCredit(ctx: RequestContext): Promise<StoreCreditExportDto[]> {
    const m = managerOf(ctx, this.dataSource);
    const accounts = await this.repo.storeCreditAccounts(m, ctx.tenantId);
    const rows = await this.repo.ledgerOfKind(m, ctx.tenantId, 'store_credit');
    const emails = await customerEmails(m, ctx.tenantId, [...new Set(accounts.map((a) => a.customer_id!))]);
    return accounts
      .filter((a) => emails.has(a.customer_id!))
      .map((a) => ({
        customer_email: emails.get(a.customer_id!)!,
        customer_id: a.customer_id!,
        currency: a.currency_code,
        balance: Number(a.balance),
        transactions: exportRows(rows, a.id),
      }))
      .sort((x, y) => x.customer_email.toLowerCase().localeCompare(y.customer_email.toLowerCase()) || x.currency.localeCompare(y.currency));
  }

  /**
   * One transaction; customers are matched by e-mail (without case) and must exist (422 naming the member). A
   * customer without credit in that currency gets the account with its ledger; one whose account already has rows
   * is left unchanged, so a second identical import changes nothing.
   */
  async importStoreCredit(ctx: RequestContext, dto: StoreCreditImportDto): Promise<{ created: number; unchanged: number }> {
    const config = await this.tenancy.config(ctx.tenantId);
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      const customers = await customerIdsByEmail(
        m,
        tx.tenantId,
        dto.store_credit.map((c) => c.customer_email),
      );
      let created = 0;
      for (const [i, c] of dto.store_credit.entries()) {
        const customerId = customers.get(c.customer_email.toLowerCase());
        if (!customerId) throw AppError.unprocessable(`store_credit[${i}].customer_email names no customer of this shop`);
        const currency = c.currency.toUpperCase();
        if (!config.currencies.some((x) => x.code === currency)) throw AppError.unprocessable(`store_credit[${i}].currency is not a currency of this shop`);
        checkSum(c.transactions, `store_credit[${i}].transactions`);
        const id = await this.repo.storeCreditAccount(m, tx.tenantId, customerId, currency);
        await this.repo.lock(m, tx.tenantId, [id]);
        if (await this.repo.hasRows(m, tx.tenantId, id)) continue;
        for (const t of c.transactions) {
          await this.repo.append(m, tx.tenantId, {
            accountId: id,
            amount: String(t.amount),
            currency,
            orderId: null,
            kind: t.kind,
            staffId: null,
            note: t.note ?? null,
          });
        }
        created++;
      }
      return { created, unchanged: dto.store_credit.length - created };
    });
  }

  /** One transaction; 422 naming the member of the first bad card. Returns how many cards were created. */
  async import(ctx: RequestContext, dto: GiftCardImportDto): Promise<{ created: number; unchanged: number }> {
    return inTransaction(ctx, this.dataSource, async (tx) => {
      const m = managerOf(tx, this.dataSource);
      let created = 0;
      for (const [i, c] of dto.gift_cards.entries()) {
        const hash = Buffer.from(c.code_hash, 'base64');
        if (hash.length !== 32) throw AppError.unprocessable(`gift_cards[${i}].code_hash must be a base64 SHA-256 hash`);
        checkSum(c.transactions, `gift_cards[${i}].transactions`);
        if (await this.repo.accountByCodeHash(m, tx.tenantId, hash)) continue;
        const id = await this.repo.insertAccount(m, tx.tenantId, {
          kind: 'gift_card',
          codeHash: hash,
          lastCharacters: c.last_characters,
          currency: c.currency.toUpperCase(),
          initialValue: String(c.initial_value),
          customerId: null,
          expiresAt: c.expires_at ? new Date(c.expires_at) : null,
          note: c.note ?? null,
        });
        if (c.disabled)
          await this.repo.updateAccount(m, tx.tenantId, id, {
            note: c.note ?? null,
            expiresAt: c.expires_at ? new Date(c.expires_at) : null,
            customerId: null,
            disabledAt: new Date(),
          });
        for (const t of c.transactions) {
          await this.repo.append(m, tx.tenantId, {
            accountId: id,
            amount: String(t.amount),
            currency: c.currency.toUpperCase(),
            orderId: null,
            kind: t.kind,
            staffId: null,
            note: t.note ?? null,
          });
        }
        created++;
      }
      return { created, unchanged: dto.gift_cards.length - created };
    });
  }
}

function exportRows(rows: LedgerTransactionRow[], accountId: string) {
  return rows
    .filter((r) => r.account_id === accountId)
    .map((r) => ({ kind: r.kind, amount: Number(r.amount), order_id: r.order_id, note: r.note, created_at: new Date(r.created_at).toISOString() }));
}

/** A balance never goes below zero: neither may an imported ledger's sum. */
function checkSum(transactions: Array<{ amount: number }>, path: string): void {
  if (transactions.reduce((a, t) => a + Math.round(t.amount * 10_000), 0) < 0) throw AppError.unprocessable(`${path} sum below zero`);
}
