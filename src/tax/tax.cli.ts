import { DataSource } from 'typeorm';
import type { CliCommand } from '../extensions/index.js';
import { TenancyService } from '../tenancy/index.js';
import { importTax } from './tax-import.js';

/**
 * `tax load-eu --tenant T [--mode destination]`: loads the shipped EU/CH/NO/UK VAT rates (preset `eu-2026`,
 * src/tax/data/eu-vat-2026.ts) into a shop: a zone per country, categories `standard` and `reduced`, their rates.
 * Idempotent; `--mode destination` also switches the shop to destination taxes.
 */
export const taxLoadEuCommand: CliCommand = {
  name: 'tax load-eu',
  usage: 'tax load-eu --tenant ID [--mode origin|destination]',
  options: { tenant: { type: 'string' }, mode: { type: 'string' } },
  async run(app, args) {
    const ref = typeof args.values.tenant === 'string' ? args.values.tenant.trim() : '';
    if (!ref) throw new Error('--tenant is required');
    const tenancy = app.get(TenancyService);
    const tenant = (await tenancy.findById(ref)) ?? (await tenancy.findByHandle(ref));
    if (!tenant) throw new Error(`no shop with id or handle "${ref}"`);
    const mode = args.values.mode as string | undefined;
    const counts = await app.get(DataSource).transaction((m) => importTax(m, tenant.id, { preset: 'eu-2026', ...(mode ? { mode } : {}) }));
    const text = `eu-2026 loaded: ${counts.created.tax_zones} zones, ${counts.created.tax_categories} categories and ${counts.created.tax_rates} rates created, ${counts.updated.tax_rates} rates updated`;
    return { json: { tax: counts }, text };
  },
};
