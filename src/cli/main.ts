import 'reflect-metadata';
import { ConfigError } from '../config/app-config.js';
import { runCli } from './cli.js';

try {
  const code = await runCli(process.argv.slice(2), { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) });
  process.exitCode = code;
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
