// The data source of the TypeORM migration CLI (`npm run typeorm -- migration:show`). It uses DATABASE_URL, or the
// embedded PostgreSQL of `npm start` (which must be running) when unset.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfig } from './src/config/app-config.js';
import { dataSourceOptions } from './src/database/data-source.js';

const config = loadConfig();
const url = config.DATABASE_URL ?? `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/shop`;

export default new DataSource(dataSourceOptions(url));
