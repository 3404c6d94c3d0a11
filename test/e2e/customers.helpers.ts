import { MemoryMailTransport } from '../../src/customers/mail/mail-transport.js';
import { MailTransportOverrideModule } from '../../src/customers/mail/mail.module.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { TenancyService } from '../../src/tenancy/tenancy.service.js';
import { createTestApp, ShopClient, TestApp, TestShop } from '../helpers/test-app.js';

export const PROFILE_KEYS = ['id', 'email', 'is_active', 'is_email_confirmed', 'type', 'default_address'].sort();
export const ADDRESS_KEYS = [
  'id',
  'first_name',
  'last_name',
  'company',
  'department',
  'street',
  'house_number',
  'zip_code',
  'location',
  'country_id',
  'phone_number',
  'mobile_number',
  'fax_number',
  'email',
  'website',
  'title_id',
].sort();
export const PASSWORD = 'correct horse battery';

/** The whole app with mail captured in memory (the only replaced provider: the mail transport). */
export async function createCustomersApp(config: Partial<AppConfig> = {}): Promise<{ t: TestApp; mail: MemoryMailTransport }> {
  const mail = new MemoryMailTransport();
  const t = await createTestApp({ config, imports: [MailTransportOverrideModule.use(mail)] });
  return { t, mail };
}

export async function requireConfirmation(t: TestApp, shop: TestShop, on: boolean): Promise<void> {
  await t.get(TenancyService).updateSettings(t.db.manager, shop.tenant.id, { require_email_confirmation: on });
}

/** Registers a shopper through the storefront (201) and returns the profile. */
export async function register(client: ShopClient, email: string, password = PASSWORD, names: { first_name?: string; last_name?: string } = {}) {
  const res = await client.post('/customers', { email, password, ...names }).expect(201);
  return res.body.customer as {
    id: string;
    email: string;
    is_active: boolean;
    is_email_confirmed: boolean;
    type: string;
    default_address: Record<string, unknown> | null;
  };
}

/** Signs in (200) and returns a client carrying the shopper token. */
export async function signIn(
  t: TestApp,
  client: ShopClient,
  email: string,
  password = PASSWORD,
): Promise<{ token: string; expiresAt: string; me: ShopClient }> {
  const res = await client.post('/customer/auth/token', { email, password }).expect(200);
  const { access_token, expires_at } = res.body.customer_access_token;
  return { token: access_token, expiresAt: expires_at, me: t.client(access_token) };
}
