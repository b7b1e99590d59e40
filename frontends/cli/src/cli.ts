import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import {
  type ChangeOptions,
  type CreateOptions,
  edit,
  fork,
  get,
  list,
  login,
  markDashedKeys,
  paste,
  remove,
} from './commands.js';
import { RequestError, UsageError } from './errors.js';
import { Interrupted } from './terminal.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const ENVIRONMENT = `
Environment:
  TERMPASTE_URL    the forum's URL (over the one \`termpaste login\` saved)
  TERMPASTE_TOKEN  an access token (over the saved one; \`termpaste login\` saves it)
  TERMPASTE_SSH_KEYGEN  the ssh-keygen --sign runs (default: the one on the PATH)
  XDG_CONFIG_HOME  where the login is saved: $XDG_CONFIG_HOME/termpaste/config.json (default ~/.config)

--json (every command): the server's JSON answer on standard output, one document a line; an error as
{"error": "…", "status": N} on standard error (status: the HTTP status, when the server answered).

Exit codes: 0 done, 1 the server could not be reached or refused, 2 wrong usage.`;

const JSON_HELP = "print the server's JSON answer (errors as JSON on standard error)";
const EXPIRE_HELP = 'delete it after 10m, 1h, 1d, 1w or 1mo (never: keep it)';
const REF_HELP = "the paste's number or key, or its URL (…/thread/42)";

/** --public (edit and fork only), --unlisted, --private, --expire on `command`. */
function lifeOptions(command: Command, withPublic: boolean): Command {
  if (withPublic) command.option('--public', 'anyone may read it, and it is listed (home, search, profile)');
  return command
    .option('--unlisted', 'anyone with its link may read it; it is listed nowhere')
    .option('--private', 'only you may read it')
    .option('--expire <when>', EXPIRE_HELP);
}

/**
 * The program: `termpaste [FILE…]`, `termpaste login`, `get`, `list`, `edit`, `fork`, `delete`. `json`:
 * usage errors are written as `--json` asks (main() has seen it in the arguments).
 */
export function program(json = false): Command {
  const root = new Command('termpaste')
    .description('Paste files and pipes to a Termpaste forum, and read pastes back.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    // Commander leaves the help command out when the program has an action of its own (the paste).
    .helpCommand('help [command]', 'show help for a command')
    // The paste's options (--title…) stay before a command's name, so `edit 5 --title x` is edit's.
    .enablePositionalOptions()
    .exitOverride()
    // Commander's own usage errors read like ours: `termpaste: unknown option '--x'`, or JSON.
    .configureOutput({
      outputError: (text, write) =>
        write(
          json ? jsonError(text.replace(/^error: /, '').trim()) : text.replace(/^error: /, 'termpaste: '),
        ),
    });
  if (!json) root.showHelpAfterError('(run with --help for usage)');
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
    .option(
      '--tag <name>',
      'a tag (repeat it, or a comma list: --tag python,ci); at most 5, each 2-30 of a-z, 0-9 and -',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  lifeOptions(root, false)
    .option('--burn', 'delete it the moment its first reader (not you) is shown it')
    .option('--allow-secrets', 'publish even when the server finds what looks like a secret (a key, a token)')
    .option('--sign', 'sign it with your SSH key (ssh-keygen -Y sign -n termpaste): the paste shows VERIFIED')
    .option(
      '--key <file>',
      'the SSH key --sign uses (default ~/.ssh/id_ed25519); its .pub must be in Settings → SSH KEYS',
    )
    .option('--json', JSON_HELP)
    .addHelpText(
      'after',
      `
Examples:
  termpaste login --url https://paste.example.org
  termpaste build.log                      # prints the paste's URL
  make 2>&1 | termpaste --title "make output"
  termpaste a.py b.py --lang python        # one paste each
  termpaste demo.cast                      # an asciinema recording, played in the page
  termpaste deploy.sh --tag bash --tag ci  # tagged (or --tag bash,ci)
  termpaste notes.md --unlisted --expire 1d
  termpaste install.sh --sign              # signed with ~/.ssh/id_ed25519 (--key FILE for another)
  termpaste secret.txt --private --burn
  termpaste get 42 > saved.txt
  termpaste edit 42 fixed.log --title "build log, fixed"
  termpaste fork 42
  termpaste delete 42
  termpaste list --json
${ENVIRONMENT}`,
    )
    .action((files: string[], options: CreateOptions) => paste(files, options));

  root
    .command('login')
    .description(
      'check an access token and save it with the URL (asks for it, or reads TERMPASTE_TOKEN or a pipe)',
    )
    .option(
      '-u, --url <url>',
      "the forum's URL (default: TERMPASTE_URL, the saved one, or http://localhost:3000)",
    )
    .option('--json', 'print {"url", "username", "file"} (errors as JSON on standard error)')
    .addHelpText(
      'after',
      `
Make a token in the forum's Settings → ACCESS TOKENS: pastes:write to paste, edit, fork and delete, read
for \`termpaste get\` and \`termpaste list\`.
The URL and token are saved in $XDG_CONFIG_HOME/termpaste/config.json (mode 0600).

Examples:
  termpaste login --url https://paste.example.org
  echo "$TOKEN" | termpaste login --url https://paste.example.org`,
    )
    .action((options: { url?: string; json?: boolean }, command: Command) =>
      login({ ...options, json: jsonOf(command) }),
    );

  root
    .command('get')
    .description("print a paste's raw text, byte for byte")
    .argument('<id-or-url>', REF_HELP)
    .option('--json', 'print the paste as GET /api/threads/{id} answers it, not its raw text')
    .option('--comments', 'print its comments under the text: line comments with their lines and suggestions')
    .addHelpText(
      'after',
      `
Examples:
  termpaste get 42
  termpaste get https://paste.example.org/thread/42 > saved.txt
  termpaste get 42 --comments
  termpaste get 42 --json | jq .title`,
    )
    .action((ref: string, options: { comments?: boolean }, command: Command) =>
      get(ref, { json: jsonOf(command), comments: options.comments === true }),
    );

  root
    .command('list')
    .description('list your recent pastes: number, date, title and URL')
    .option('--json', "print them as the API's array of pastes")
    .action((_options: unknown, command: Command) => list({ json: jsonOf(command) }));

  const edited = root
    .command('edit')
    .description('change one of your pastes: its content, title, language, visibility or expiry')
    .argument('<id-or-url>', REF_HELP)
    .argument('[file]', 'the new content; - reads standard input (the default when it is a pipe)')
    .option('-t, --title <title>', 'the new title')
    .option('-l, --lang <language>', 'the language to highlight it as (markdown: none)');
  lifeOptions(edited, true)
    .option('--allow-secrets', 'publish even when the server finds what looks like a secret')
    .option('--sign', 'sign the new content with your SSH key (without it, a new content is unsigned)')
    .option('--key <file>', 'the SSH key --sign uses (default ~/.ssh/id_ed25519)')
    .option('--json', 'print the paste as PATCH /api/threads/{id} answers it')
    .addHelpText(
      'after',
      `
An earlier version stays in the paste's history. Making a paste unlisted or private gives it a new,
unguessable URL: the one printed.

Examples:
  termpaste edit 42 build.log
  termpaste edit 42 install.sh --sign      # a signed paste stays signed only when signed anew
  make 2>&1 | termpaste edit 42
  termpaste edit 42 --title "now with the fix" --private
  termpaste edit 42 --expire never`,
    )
    .action(
      (
        ref: string,
        file: string | undefined,
        options: ChangeOptions & { sign?: boolean; key?: string },
        command: Command,
      ) => edit(ref, file, { ...options, json: jsonOf(command) }),
    );

  const forked = root
    .command('fork')
    .description('make a new paste of your own from a paste (its title and content unless given)')
    .argument('<id-or-url>', REF_HELP)
    .argument('[file]', 'the content of the fork; - reads standard input (the default when it is a pipe)')
    .option('-t, --title <title>', "the fork's title")
    .option('-l, --lang <language>', 'the language to highlight it as');
  lifeOptions(forked, true)
    .option('--burn', 'delete it the moment its first reader (not you) is shown it')
    .option('--allow-secrets', 'publish even when the server finds what looks like a secret')
    .option('--json', 'print the server\'s answer: {"id"}')
    .addHelpText(
      'after',
      `
Examples:
  termpaste fork 42                        # prints the new paste's URL
  termpaste fork 42 patched.py --title "with the fix"`,
    )
    .action(
      (
        ref: string,
        file: string | undefined,
        options: ChangeOptions & { burn?: boolean },
        command: Command,
      ) => fork(ref, file, { ...options, json: jsonOf(command) }),
    );

  root
    .command('delete')
    .description('delete one of your pastes (staff can restore it for 30 days)')
    .argument('<id-or-url>', REF_HELP)
    .option('--json', 'print {"deleted": ID}')
    .addHelpText(
      'after',
      `
Examples:
  termpaste delete 42
  termpaste delete https://paste.example.org/thread/Zk3q9XyL0aBcDeFgHiJkLm`,
    )
    .action((ref: string, _options: unknown, command: Command) => remove(ref, { json: jsonOf(command) }));

  return root;
}

/** --json given to the command, or before its name (`termpaste --json list`). */
function jsonOf(command: Command): boolean {
  return Boolean(command.optsWithGlobals().json);
}

/** Whether the arguments ask for --json (before a `--`): errors are then written as JSON. */
export function wantsJson(args: string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/** An error as `--json` writes it on standard error: `{"error", "status"?}` and a newline. */
export function jsonError(message: string, status?: number): string {
  return `${JSON.stringify(status === undefined ? { error: message } : { error: message, status })}\n`;
}

/** Runs the CLI on `argv` (as process.argv: node, script, arguments); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const json = wantsJson(argv.slice(2));
  const fail = (message: string, status?: number) =>
    process.stderr.write(json ? jsonError(message, status) : `termpaste: ${message}\n`);
  try {
    await program(json).parseAsync([...argv.slice(0, 2), ...markDashedKeys(argv.slice(2))]);
    return 0;
  } catch (error) {
    // Commander has printed its message (or the help, or the version) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      fail(error.message);
      return error.exitCode;
    }
    if (error instanceof RequestError) {
      fail(error.message, error.status);
      return error.exitCode;
    }
    if (error instanceof Interrupted) return 130;
    fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return 1;
  }
}
