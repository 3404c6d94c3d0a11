/** Public file of the extensions module: the extension points (tokens and contracts) and their collector. */
export * from './extension-points.js';
export * from './shipping-rate-provider.js';
export type { CliArgs, CliCommand, CliIo } from './cli-command.js';
export { Extensions } from './extensions.service.js';
export { PriceAdjustments } from './price-adjustments.service.js';
export { ExtensionsModule } from './extensions.module.js';
