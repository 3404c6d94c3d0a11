// Runs the whole service with the wine-club extension:
//   DATABASE_URL=postgres://... node --import ts-node/esm examples/wine-club/main.ts   (or build it with your app)
import 'reflect-metadata';
import { createShopApp, loadConfig } from 'vinoshop-commerce';
import { wineClubExtension } from './wine-club.module.js';

const config = loadConfig();
if (!config.DATABASE_URL) throw new Error('set DATABASE_URL');
const app = await createShopApp({ config, databaseUrl: config.DATABASE_URL, ...wineClubExtension() });
await app.listen(config.PORT, config.HOST);
process.stdout.write(`commerce service with the wine club on http://${config.HOST}:${config.PORT}\n`);
