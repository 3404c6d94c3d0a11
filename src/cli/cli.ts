import type { INestApplicationContext } from '@nestjs/common';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createShopContext } from '../app.js';
import { AuthService } from '../auth/index.js';
import { CatalogueImportService } from '../catalogue/index.js';
import { ordersListCommand } from '../checkout/index.js';
import { giftCardsIssueCommand } from '../gift-cards/index.js';
import { taxLoadEuCommand } from '../tax/index.js';
import { generateDemoCatalogue } from '../catalogue/index.js';
import { ProvisioningService } from '../auth/index.js';
import { RequestContext } from '../common/context/request-context.js';
import { AppError } from '../common/http/app-error.js';
import { DiscountCodesService } from '../discounts/index.js';
import { AppConfig, loadConfig } from '../config/app-config.js';
import type { CliArgs, CliCommand, CliIo } from '../extensions/index.js';
import { startEmbeddedPostgres } from '../database/embedded-postgres.js';
import { STOREFRONT_DEMO_PATH } from '../storefront-demo/index.js';
import { TenancyService } from '../tenancy/index.js';
import { mapTheme } from '../themes/index.js';
import { listLibraryThemes, ThemesService } from '../themes/index.js';

export type { CliArgs, CliCommand, CliIo } from '../extensions/index.js';

const list = (v: unknown): string[] =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
const required = (args: CliArgs, name: string): string => {
  const v = args.values[name];
  if (typeof v !== 'string' || !v.trim()) throw new CliError(`--${name} is required`);
  return v.trim();
};

export class CliError extends Error {}

/** `--tenant` takes the shop's id or its handle. */
export async function tenantContext(app: INestApplicationContext, ref: string): Promise<RequestContext> {
  const tenancy = app.get(TenancyService);
  const tenant = (await tenancy.findById(ref)) ?? (await tenancy.findByHandle(ref));
  if (!tenant) throw new CliError(`no shop with id or handle "${ref}"`);
  return RequestContext.forTenant(tenant.id, 'cli');
}

const staffJson = (s: { id: string; email: string; permissions: string[] }) => ({ staff: { id: s.id, email: s.email, permissions: s.permissions } });

export const commands: CliCommand[] = [
  {
    name: 'tenant create',
    usage: 'tenant create --name NAME [--handle H] [--domain D] [--currency CHF]',
    options: { name: { type: 'string' }, handle: { type: 'string' }, domain: { type: 'string' }, currency: { type: 'string' } },
    async run(app, args) {
      const shop = await app.get(ProvisioningService).createShop({
        name: required(args, 'name'),
        handle: args.values.handle as string | undefined,
        domain: args.values.domain as string | undefined,
        currency: args.values.currency as string | undefined,
      });
      return {
        json: shop,
        text: `shop ${shop.tenant.handle} (${shop.tenant.id})\nowner: ${shop.owner.email}\nadmin token: ${shop.admin_token}\nstorefront token: ${shop.storefront_token}`,
      };
    },
  },
  {
    name: 'staff create',
    usage: 'staff create --tenant ID --email E [--permissions P1,P2]',
    options: { tenant: { type: 'string' }, email: { type: 'string' }, permissions: { type: 'string' } },
    async run(app, args) {
      const ctx = await tenantContext(app, required(args, 'tenant'));
      const staff = await app.get(AuthService).createStaff(ctx, { email: required(args, 'email'), permissions: list(args.values.permissions) });
      return { json: staffJson(staff), text: `staff ${staff.email} (${staff.id}): ${staff.permissions.join(' ') || 'no permissions'}` };
    },
  },
  {
    name: 'staff permissions',
    usage: 'staff permissions --tenant ID --email E --set P1,P2',
    options: { tenant: { type: 'string' }, email: { type: 'string' }, set: { type: 'string' } },
    async run(app, args) {
      const ctx = await tenantContext(app, required(args, 'tenant'));
      if (typeof args.values.set !== 'string') throw new CliError('--set is required (an empty string removes every permission)');
      const staff = await app.get(AuthService).setPermissions(ctx, required(args, 'email'), list(args.values.set));
      return { json: staffJson(staff), text: `staff ${staff.email}: ${staff.permissions.join(' ') || 'no permissions'}` };
    },
  },
  {
    name: 'token mint',
    usage: 'token mint --tenant ID --staff-email E --tier admin|storefront --label L [--scopes S1,S2]',
    options: { tenant: { type: 'string' }, 'staff-email': { type: 'string' }, tier: { type: 'string' }, label: { type: 'string' }, scopes: { type: 'string' } },
    async run(app, args) {
      const ctx = await tenantContext(app, required(args, 'tenant'));
      const auth = app.get(AuthService);
      const staff = await auth.findStaff(ctx, required(args, 'staff-email'));
      const tier = required(args, 'tier');
      const scopes = args.values.scopes !== undefined ? list(args.values.scopes) : tier === 'admin' ? staff.permissions : auth.allStorefrontScopes();
      const minted = await auth.mint(ctx, staff.id, { label: required(args, 'label'), tier, scopes });
      return { json: minted, text: `${minted.token}\n(id ${minted.id}; scopes: ${minted.scopes})` };
    },
  },
  {
    name: 'theme create',
    usage: 'theme create --tenant ID --from KEY [--name N]',
    options: { tenant: { type: 'string' }, from: { type: 'string' }, name: { type: 'string' } },
    async run(app, args) {
      const ctx = await tenantContext(app, required(args, 'tenant'));
      const key = required(args, 'from');
      if (!listLibraryThemes().includes(key)) throw new CliError(`unknown library theme "${key}"; available: ${listLibraryThemes().join(', ')}`);
      const theme = mapTheme(await app.get(ThemesService).createFromLibrary(ctx, key, args.values.name as string | undefined));
      return { json: { theme }, text: `theme ${theme.name} (${theme.id}) from ${key}, role ${theme.role}` };
    },
  },
  {
    name: 'catalogue import',
    usage: 'catalogue import --tenant ID FILE (.json, or .ndjson/.jsonl)',
    options: { tenant: { type: 'string' } },
    async run(app, args) {
      const ctx = await tenantContext(app, required(args, 'tenant'));
      const file = args.positionals[0];
      if (!file) throw new CliError('the JSON file to import is required: catalogue import --tenant ID FILE');
      const importer = app.get(CatalogueImportService);
      // FILE.ndjson / FILE.jsonl: the NDJSON form (the export's ?format=ndjson), read line by line
      if (/\.(ndjson|jsonl)$/i.test(file)) {
        const report = await importer.importNdjson(ctx, file).catch((err: unknown) => {
          throw err instanceof AppError || !(err as NodeJS.ErrnoException).syscall ? err : new CliError(`cannot read ${file}: ${(err as Error).message}`);
        });
        return { json: { import: report }, text: importSummary(report) };
      }
      let body: unknown;
      try {
        body = JSON.parse(await readFile(file, 'utf8'));
      } catch (err) {
        throw new CliError(`cannot read ${file} as JSON: ${(err as Error).message}`);
      }
      const report = await importer.import(ctx, body);
      return { json: { import: report }, text: importSummary(report) };
    },
  },
  {
    name: 'demo',
    usage: 'demo [--products 2000] [--port PORT]',
    options: { products: { type: 'string' }, port: { type: 'string' } },
    async run(app, args) {
      const count = args.values.products === undefined ? 2000 : Number(args.values.products);
      if (!Number.isInteger(count) || count < 1 || count > 200_000) throw new CliError('--products must be an integer from 1 to 200000');
      // the port of the server the shopper will open (the CLI itself listens on none): --port, else PORT
      const port = args.values.port === undefined ? app.get(AppConfig).PORT : Number(args.values.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535) throw new CliError('--port must be an integer from 1 to 65535');
      const provisioning = app.get(ProvisioningService);
      const tenancy = app.get(TenancyService);
      const auth = app.get(AuthService);
      const existing = await tenancy.findByHandle('demo');
      let shop: { tenant: { id: string; handle: string }; owner: { id: string; email: string }; admin_token: string; storefront_token: string };
      if (existing) {
        // reuse the shop; its secrets are not stored, so mint a fresh pair for the owner
        const ctx = RequestContext.forTenant(existing.id, 'cli');
        const owner = await auth.findStaff(ctx, 'owner@demo.shop.local');
        const admin = await auth.mint(ctx, owner.id, { label: 'Demo admin token', tier: 'admin', scopes: auth.allAdminScopes() });
        const storefront = await auth.mint(ctx, owner.id, { label: 'Demo storefront token', tier: 'storefront', scopes: auth.allStorefrontScopes() });
        shop = {
          tenant: { id: existing.id, handle: existing.handle },
          owner: { id: owner.id, email: owner.email },
          admin_token: admin.token,
          storefront_token: storefront.token,
        };
      } else {
        shop = await provisioning.createShop({ name: 'Demo Wine Shop', handle: 'demo' });
      }
      const shopCtx = RequestContext.forTenant(shop.tenant.id, 'cli');
      const report = await app.get(CatalogueImportService).import(shopCtx, generateDemoCatalogue(count));
      const discountCode = await welcomeCode(app, shopCtx);
      const url = storefrontDemoUrl(app.get(AppConfig), port, shop.storefront_token);
      return {
        json: { ...shop, import: report, storefront_demo_url: url, discount_code: discountCode },
        text:
          `demo shop ${shop.tenant.id}\nadmin token: ${shop.admin_token}\nstorefront token: ${shop.storefront_token}\n${importSummary(report)}\n` +
          `discount code: ${discountCode} (10% off, any number of orders)\nstorefront demo: ${url}\n` +
          '  (served while the API runs with STOREFRONT_DEMO=on; the card payment type needs the test provider: PAYMENT_TEST_PROVIDER=on, never in production;\n' +
          '   e.g. STOREFRONT_DEMO=on PAYMENT_TEST_PROVIDER=on npm start)',
      };
    },
  },
  ordersListCommand,
  giftCardsIssueCommand,
  taxLoadEuCommand,
];

/** The reference storefront on this API (README: Reference storefront); the public token names the shop. */
function storefrontDemoUrl(config: AppConfig, port: number, storefrontToken: string): string {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return `http://${host}:${port}${STOREFRONT_DEMO_PATH}/?token=${encodeURIComponent(storefrontToken)}`;
}

/** The demo's code to try at checkout: `WELCOME10`, 10 % off, reusable; created once, kept as it is on a rerun. */
export const DEMO_DISCOUNT_CODE = 'WELCOME10';

async function welcomeCode(app: INestApplicationContext, ctx: RequestContext): Promise<string> {
  const codes = app.get(DiscountCodesService);
  if (!(await codes.findByCode(ctx, DEMO_DISCOUNT_CODE))) await codes.create(ctx, { code: DEMO_DISCOUNT_CODE, type: 'percent', value: 10, is_infinite: true });
  return DEMO_DISCOUNT_CODE;
}

function importSummary(report: { created: Record<string, number>; updated: Record<string, number> }): string {
  const fmt = (m: Record<string, number>) =>
    Object.entries(m)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ') || 'nothing';
  return `created: ${fmt(report.created)}\nupdated: ${fmt(report.updated)}`;
}

/** Extra commands contributed by feature modules (catalogue import, demo, theme create). */
export function registerCommand(command: CliCommand): void {
  commands.push(command);
}

function usage(): string {
  return ['usage: npm run shop -- <command> [options] [--json]', '', ...commands.map((c) => `  ${c.usage}`)].join('\n');
}

/**
 * Runs one command. With `--json` exactly one JSON object goes to stdout (an `{errors}` envelope on failure).
 * Returns the exit code.
 */
export async function runCli(argv: string[], io: CliIo, opts: { config?: AppConfig; databaseUrl?: string } = {}): Promise<number> {
  const json = argv.includes('--json');
  const words = argv.filter((a) => a !== '--json');
  const command = commands.find((c) => {
    const parts = c.name.split(' ');
    return parts.every((p, i) => words[i] === p);
  });
  const fail = (message: string, code = 1) => {
    if (json) io.out(JSON.stringify({ errors: message }));
    io.err(`error: ${message}`);
    return code;
  };
  if (!command) return fail(words.length ? `unknown command "${words.slice(0, 2).join(' ')}"\n${usage()}` : usage(), 2);
  let args: CliArgs;
  try {
    const parsed = parseArgs({ args: words.slice(command.name.split(' ').length), options: command.options, allowPositionals: true, strict: true });
    args = { values: parsed.values as CliArgs['values'], positionals: parsed.positionals };
  } catch (err) {
    return fail(`${(err as Error).message}\nusage: ${command.usage}`, 2);
  }

  const config = opts.config ?? loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  let embedded: { stop: () => Promise<void> } | null = null;
  let databaseUrl = opts.databaseUrl ?? config.DATABASE_URL;
  if (!databaseUrl) {
    const db = await startEmbeddedPostgres({ dataDir: config.DATA_DIR, port: config.EMBEDDED_PG_PORT });
    embedded = db;
    databaseUrl = db.url;
  }
  let app: INestApplicationContext | null = null;
  try {
    // log lines (a slow query, a warning) go to stderr: stdout carries the command's answer alone (one JSON object with --json)
    app = await createShopContext({ config, databaseUrl, logDestination: { write: (line: string) => process.stderr.write(line) } });
    const result = await command.run(app, args, io);
    io.out(json ? JSON.stringify(result.json) : result.text);
    return 0;
  } catch (err) {
    if (err instanceof CliError || err instanceof AppError) return fail(err.message);
    return fail(err instanceof Error ? err.message : String(err));
  } finally {
    await app?.close();
    await embedded?.stop();
  }
}
