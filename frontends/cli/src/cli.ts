import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { get, list, login, paste } from './commands.js';
import { RequestError, UsageError } from './errors.js';
import { Interrupted } from './terminal.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const ENVIRONMENT = `
Environment:
  TERMPASTE_URL    the forum's URL (over the one \`termpaste login\` saved)
  TERMPASTE_TOKEN  an access token (over the saved one; \`termpaste login\` saves it)
  XDG_CONFIG_HOME  where the login is saved: $XDG_CONFIG_HOME/termpaste/config.json (default ~/.config)

Exit codes: 0 done, 1 the server could not be reached or refused, 2 wrong usage.`;

/** The program: `termpaste [FILE…]`, `termpaste login`, `termpaste get`, `termpaste list`. */
export function program(): Command {
  const root = new Command('termpaste')
    .description('Paste files and pipes to a Termpaste forum, and read pastes back.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Commander leaves the help command out when the program has an action of its own (the paste).
    .helpCommand('help [command]', 'show help for a command')
    .exitOverride()
    // Commander's own usage errors read like ours: `termpaste: unknown option '--x'`.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'termpaste: ')) })
    .showHelpAfterError('(run with --help for usage)');
  root
    .argument(
      '[files...]',
      'files to paste, one paste each; - reads standard input (the default when it is a pipe)',
    )
    .option(
      '-t, --title <title>',
      "the paste's title (default: the file's name; for standard input, its first line)",
    )
    .option('-l, --lang <language>', 'the language to highlight it as (e.g. python, sh)')
    .option('--allow-secrets', 'publish even when the server finds what looks like a secret (a key, a token)')
    .addHelpText(
      'after',
      `
Examples:
  termpaste login --url https://paste.example.org
  termpaste build.log                      # prints the paste's URL
  make 2>&1 | termpaste --title "make output"
  termpaste a.py b.py --lang python        # one paste each
  termpaste get 42 > saved.txt
  termpaste list
${ENVIRONMENT}`,
    )
    .action((files: string[], options: { title?: string; lang?: string; allowSecrets?: boolean }) =>
      paste(files, options),
    );

  root
    .command('login')
    .description(
      'check an access token and save it with the URL (asks for it, or reads TERMPASTE_TOKEN or a pipe)',
    )
    .option(
      '-u, --url <url>',
      "the forum's URL (default: TERMPASTE_URL, the saved one, or http://localhost:3000)",
    )
    .addHelpText(
      'after',
      `
Make a token in the forum's Settings → ACCESS TOKENS: pastes:write to paste, read for \`termpaste list\`.
The URL and token are saved in $XDG_CONFIG_HOME/termpaste/config.json (mode 0600).

Examples:
  termpaste login --url https://paste.example.org
  echo "$TOKEN" | termpaste login --url https://paste.example.org`,
    )
    .action((options: { url?: string }) => login(options));

  root
    .command('get')
    .description("print a paste's raw text, byte for byte")
    .argument('<id-or-url>', "the paste's number, or its URL (…/thread/42)")
    .addHelpText(
      'after',
      `
Examples:
  termpaste get 42
  termpaste get https://paste.example.org/thread/42 > saved.txt`,
    )
    .action((ref: string) => get(ref));

  root
    .command('list')
    .description('list your recent pastes: number, date, title and URL')
    .action(() => list());

  return root;
}

/** Runs the CLI on `argv` (as process.argv: node, script, arguments); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  try {
    await program().parseAsync(argv);
    return 0;
  } catch (error) {
    // Commander has printed its message (or the help, or the version) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError || error instanceof RequestError) {
      process.stderr.write(`termpaste: ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof Interrupted) return 130;
    process.stderr.write(
      `termpaste: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  }
}
