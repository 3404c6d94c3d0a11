// Runs the whole service with the demo carrier's rates (methods with "rate_provider": "demo-carrier"):
//   DATABASE_URL=postgres://... node --import ts-node/esm examples/carrier-rates/main.ts
import 'reflect-metadata';
import { createShopApp, loadConfig } from 'vinoshop-commerce';
import { CarrierRatesModule } from './carrier-rates.module.js';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('set DATABASE_URL');
const carrier = CarrierRatesModule.forRoot({ baseMinor: 500, perBottleMinor: 50, refuses: [], latencyMs: 0 });
const app = await createShopApp({ config, databaseUrl: config.DATABASE_URL, imports: [carrier] });
await app.listen(config.PORT, config.HOST);
process.stdout.write(`commerce service with carrier rates on http://${config.HOST}:${config.PORT}\n`);
