import { Column, Entity } from 'typeorm';
import { TenantEntity } from '../../common/db/base.entity.js';

/** A gift card or a customer's store credit in one currency: an account of the balance ledger (issue 33). */
@Entity('balance_accounts')
export class BalanceAccount extends TenantEntity {
  /** `gift_card` or `store_credit`. */
  @Column({ type: 'text' }) kind: 'gift_card' | 'store_credit';
  /** Keyed hash of a gift card's code (never the code). */
  @Column({ type: 'bytea', nullable: true, select: false }) codeHash: Buffer | null;
  @Column({ type: 'text', nullable: true }) lastCharacters: string | null;
  @Column({ type: 'text' }) currencyCode: string;
  @Column({ type: 'numeric', precision: 18, scale: 4 }) initialValue: string;
  @Column({ type: 'uuid', nullable: true }) customerId: string | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) expiresAt: Date | null;
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ type: 'timestamptz', precision: 3, nullable: true }) disabledAt: Date | null;
}
