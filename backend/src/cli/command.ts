import type { INestApplicationContext } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.js';

/** Exit statuses: done (or nothing to do), refused or failed, and a command line that makes no sense. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** What a command needs, each made on first use (a command that needs no database opens none). */
export interface CliContext {
  /** Results, one line (or block) per call: stdout. */
  out(line: string): void;
  /** Problems: stderr. */
  err(line: string): void;
  /** The configuration from the environment (throws ConfigError on a bad one). */
  config(): AppConfig;
  /** Where relative paths on the command line start (where `npm run admin` was started). */
  cwd: string;
  /**
   * The database's address, not opened (`restore` fills an empty one). Embedded: as dataSource finds or
   * starts it, and a new DATA_DIR gets a new cluster.
   */
  databaseUrl(): Promise<string>;
  /**
   * The database, connected once for the command (embedded: the running Termpaste's PostgreSQL, or one
   * the CLI starts). 'prepared' (default): migrated first as the API does (MIGRATE_ON_START), or refused
   * while behind; 'as-is': the schema untouched (`migrate`).
   */
  dataSource(schema?: 'prepared' | 'as-is'): Promise<DataSource>;
  /**
   * The app's services on the same database (a Nest application context of the modules the CLI uses):
   * for commands that go through a feature's own machinery (bans: history row, mail, sign-out).
   */
  app(): Promise<INestApplicationContext>;
  /** Standard input, read to its end. */
  stdin(): Promise<string>;
}

/** The command line after the command's name, parsed by its `params`. */
export interface CommandArgs {
  positional: string[];
  /** `--name VALUE` options as strings, `--name` flags as true; absent ones are undefined. */
  options: Record<string, string | true | undefined>;
}

/** One command of `termpaste <command>`: adding one is a file exporting this and a line in commands.ts. */
export interface CliCommand {
  name: string;
  /** The arguments as usage shows them after the name: `<username> [--days N]`. */
  usage: string;
  /** One line for the command list. */
  summary: string;
  /** Further lines for `<command> --help`: what it does in detail, an example. */
  help?: readonly string[];
  /** Positional arguments, all required, in order (their names as usage shows them). */
  positional?: readonly string[];
  /** Options: `'string'` takes a value (`--days 7` or `--days=7`), `'boolean'` is a flag. */
  options?: Readonly<Record<string, 'string' | 'boolean'>>;
  /** Runs it; returns the exit status (EXIT). Throwing is reported as a failure (exit 1). */
  run(args: CommandArgs, ctx: CliContext): Promise<number>;
}

/** Parses `argv` (after the command's name) by the command's params: the arguments, or what is wrong. */
export function parseArgs(command: CliCommand, argv: readonly string[]): CommandArgs | { error: string } {
  const positional: string[] = [];
  const options: CommandArgs['options'] = {};
  const known = command.options ?? {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--') || arg === '--') {
      positional.push(arg);
      continue;
    }
    const [name, inline] = splitOption(arg.slice(2));
    const kind = known[name];
    if (kind === undefined) return { error: `Unknown option --${name} for ${command.name}` };
    if (options[name] !== undefined) return { error: `--${name} given twice` };
    if (kind === 'boolean') {
      if (inline !== undefined) return { error: `--${name} takes no value` };
      options[name] = true;
    } else {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith('--'))) {
        return { error: `--${name} needs a value` };
      }
      options[name] = value;
    }
  }
  const expected = command.positional ?? [];
  if (positional.length < expected.length) {
    return { error: `Missing ${expected.slice(positional.length).join(' ')} for ${command.name}` };
  }
  if (positional.length > expected.length) {
    return {
      error: `Too many arguments for ${command.name}: ${positional.slice(expected.length).join(' ')}`,
    };
  }
  return { positional, options };
}

function splitOption(text: string): [string, string | undefined] {
  const equals = text.indexOf('=');
  return equals === -1 ? [text, undefined] : [text.slice(0, equals), text.slice(equals + 1)];
}

/** The usage lines of one command: `termpaste <name> <usage>`, its summary and help. */
export function usageOf(command: CliCommand): string {
  return [
    `Usage: termpaste ${command.name}${command.usage ? ` ${command.usage}` : ''}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.help ?? []),
  ].join('\n');
}
