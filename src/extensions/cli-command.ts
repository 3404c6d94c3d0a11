/**
 * A command of the `shop` CLI (README "Command line") that a module contributes: the module exports it and
 * src/cli/cli.ts lists it. Declared here so a module declares its commands without importing src/cli/, the top of
 * the import graph (it builds the app; nothing imports it).
 */
import type { INestApplicationContext } from '@nestjs/common';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface CliCommand {
  /** e.g. `tenant create` */
  name: string;
  usage: string;
  options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  run(app: INestApplicationContext, args: CliArgs, io: CliIo): Promise<{ json: object; text: string }>;
}

export interface CliArgs {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}
