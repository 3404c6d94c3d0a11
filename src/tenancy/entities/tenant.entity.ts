import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export interface TenantSettings {
  default_language: string;
  languages: string[];
  prices_include_tax: boolean;
  show_net_prices: boolean;
  require_email_confirmation: boolean;
  guest_checkout_enabled: boolean;
  terms: { required: boolean; terms_url: string | null; privacy_url: string | null };
  age_verification: { min_age: number; min_age_by_country: Record<string, number>; applies_to_alcohol_volume_over: number };
  /** Days an invoice order may stay unpaid before it is listed as overdue (issue 33). */
  invoice_due_days: number;
  /** Days after fulfilment within which a shopper may request a return (issue 33; EU withdrawal right: 14). */
  return_window_days: number;
}

export const DEFAULT_SETTINGS: TenantSettings = {
  default_language: 'en',
  languages: ['en'],
  prices_include_tax: true,
  show_net_prices: false,
  require_email_confirmation: false,
  guest_checkout_enabled: true,
  terms: { required: false, terms_url: null, privacy_url: null },
  age_verification: { min_age: 0, min_age_by_country: {}, applies_to_alcohol_volume_over: 0 },
  invoice_due_days: 30,
  return_window_days: 14,
};

/** A shop. Its id is the `tenant_id` every other table carries. */
@Entity('tenants')
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  handle: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', nullable: true })
  domain: string | null;

  @Column({ type: 'jsonb' })
  settings: TenantSettings;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}
