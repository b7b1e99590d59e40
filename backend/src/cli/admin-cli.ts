import { StartupError } from '../common/startup-error.js';
import { ConfigError } from '../config/config.js';
import { type CliCommand, EXIT, parseArgs, usageOf } from './command.js';
import { COMMANDS } from './commands.js';
import { cliContext, type CliOptions } from './context.js';

export type { CliOptions } from './context.js';

/** The whole usage: every command with its arguments and summary. */
export const CLI_USAGE = [
  'Usage: termpaste <command> [arguments]',
  '       (from a checkout: npm run admin -- <command> [arguments])',
  '',
  'Commands:',
  ...COMMANDS.flatMap((command) => [
    `  ${command.name} ${command.usage}`.trimEnd(),
    `      ${command.summary}`,
  ]),
  '',
  'termpaste <command> --help describes one. It reads the configuration the server reads (DATABASE_URL,',
  'DATA_DIR, PUBLIC_URL, ...). Exit status: 0 done (or nothing to do), 1 refused or failed, 2 usage error.',
].join('\n');

function find(name: string | undefined): CliCommand | undefined {
  return COMMANDS.find((command) => command.name === name);
}

/**
 * `termpaste <command> ...` (`npm run admin -- ...`): runs one command of COMMANDS; returns the exit
 * status (EXIT). Every change it makes is audit-logged with the actor `cli`.
 */
export async function runCli(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const ctx = cliContext(options);
  const [name, ...rest] = argv;
  if (name === undefined) {
    ctx.err(CLI_USAGE);
    return EXIT.usage;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    const about = find(rest[0]);
    if (rest.length > 1 || (rest.length === 1 && !about)) {
      ctx.err(`Not a command: ${rest.join(' ')}\n\n${CLI_USAGE}`);
      return EXIT.usage;
    }
    ctx.out(about ? usageOf(about) : CLI_USAGE);
    return EXIT.ok;
  }
  const command = find(name);
  if (!command) {
    ctx.err(`Not a command: ${name}\n\n${CLI_USAGE}`);
    return EXIT.usage;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    ctx.out(usageOf(command));
    return EXIT.ok;
  }
  const args = parseArgs(command, rest);
  if ('error' in args) {
    ctx.err(`${args.error}\n\n${usageOf(command)}`);
    return EXIT.usage;
  }
  try {
    return await command.run(args, ctx);
  } catch (error) {
    ctx.err(
      error instanceof StartupError || error instanceof ConfigError
        ? error.message
        : `Failed: ${(error as Error).stack ?? String(error)}`,
    );
    return EXIT.failed;
  } finally {
    await ctx.close();
  }
}
