import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The EU Omnibus lowest prior price kept with the open price-history row (issue 32's bench regression): the
 * storefront's product fill read it by a correlated self-join over the history for every variant on sale, at every
 * fill; it only changes when a price does, so the rebuild that records the history now writes it
 * (`variant_price_history.lowest_prior`, the open row's) and the fill reads one indexed row.
 */
export class LowestPriorMaterialised1795708500000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_price_history ADD COLUMN lowest_prior numeric(14,4)`);
    await q.query(`
      UPDATE variant_price_history cur SET lowest_prior = (
        SELECT coalesce(min(h.gross), cur.gross) FROM variant_price_history h
         WHERE h.tenant_id = cur.tenant_id AND h.variant_id = cur.variant_id AND h.id <> cur.id
           AND h.valid_from < cur.valid_from AND coalesce(h.valid_to, cur.valid_from) > cur.valid_from - interval '30 days')
      WHERE cur.valid_to IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variant_price_history DROP COLUMN lowest_prior`);
  }
}
