// Runs the whole service with the loyalty-points extension:
//   DATABASE_URL=postgres://... node --import ts-node/esm examples/loyalty-points/main.ts   (or build it with your app)
import 'reflect-metadata';
import { createShopApp, loadConfig } from 'vinoshop-commerce';
import { loyaltyPointsExtension } from './loyalty-points.module.js';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('set DATABASE_URL');
const app = await createShopApp({ config, databaseUrl: config.DATABASE_URL, ...loyaltyPointsExtension });
await app.listen(config.PORT, config.HOST);
process.stdout.write(`commerce service with loyalty points on http://${config.HOST}:${config.PORT}\n`);
