/**
 * `cli` is the top of the import graph: it builds the app and lists the modules' commands; no module imports it (a
 * module declares a command with the `CliCommand` contract of src/extensions/). Entry points: main.ts (bin/shop.js).
 */
export { runCli } from './cli.js';
