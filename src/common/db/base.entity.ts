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

/** A tenant row with one image (collections, blog articles): the columns the shared image shape is mapped from. */
export abstract class ImagedTenantEntity extends TenantEntity {
  @Column({ type: 'text', nullable: true })
  imageSrc: string | null;

  @Column({ type: 'text', nullable: true })
  imageAlt: string | null;

  @Column({ type: 'integer', nullable: true })
  imageWidth: number | null;

  @Column({ type: 'integer', nullable: true })
  imageHeight: number | null;
}

/** Text kept per language: `{"en": "Red", "de": "Rot"}`. */
export type Translations = Record<string, string>;
