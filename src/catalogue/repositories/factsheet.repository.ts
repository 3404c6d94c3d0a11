import type { EntityManager } from 'typeorm';

/** A visible variant's product and the latest change of the variant or its product (the factsheet's cache stamp). */
export interface FactsheetStampRow {
  product_id: string;
  stamp: Date | string;
}

/** The variant's factsheet stamp; undefined when the variant is not visible (not in `variant_search`). */
export async function factsheetStampOf(m: EntityManager, tenantId: string, variantId: string): Promise<FactsheetStampRow | undefined> {
  const [row]: FactsheetStampRow[] = await m.query(
    `SELECT v.product_id, greatest(v.created_at, v.updated_at, p.created_at, p.updated_at) AS stamp
       FROM variant_search vs JOIN variants v ON v.tenant_id = vs.tenant_id AND v.id = vs.variant_id JOIN products p ON p.tenant_id = v.tenant_id AND p.id = v.product_id
       WHERE vs.tenant_id = $1 AND vs.variant_id = $2`,
    [tenantId, variantId],
  );
  return row;
}
