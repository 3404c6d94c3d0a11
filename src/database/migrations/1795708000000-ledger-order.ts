import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The ledger's own order (issue 33): `created_at` has millisecond precision, so rows appended within one millisecond
 * (an import writing an account's whole history) tied and came back in the random order of their uuids. `seq` is the
 * order rows were appended in; readers order by `created_at, seq`.
 */
export class LedgerOrder1795708000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE balance_transactions ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE balance_transactions DROP COLUMN seq`);
  }
}
