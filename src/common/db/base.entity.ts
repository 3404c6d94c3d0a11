import { Column, CreateDateColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** Every tenant-owned row: a uuid, its tenant, and millisecond timestamps (exact in JS, so cursors never drift). */
export abstract class TenantEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @CreateDateColumn({ type: 'timestamptz', precision: 3 })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', precision: 3, nullable: true })
  updatedAt: Date | null;
}

/** Text kept per language: `{"en": "Red", "de": "Rot"}`. */
export type Translations = Record<string, string>;
