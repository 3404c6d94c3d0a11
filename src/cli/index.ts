/** The public surface of `cli` for other modules (feature -> feature imports go through this file only). */
export type { CliCommand } from './cli.js';
