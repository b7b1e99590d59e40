/*
 * Everything the CLI says to its user. The package runs on its own (`npx termpaste`, no monorepo), so
 * its texts live here; what the server says (its JSON `message`) is shown as the server wrote it.
 */

export const CLI_MESSAGES = {
  // Usage (exit 2).
  noInput: 'nothing to paste: name a file, or pipe text in (`make 2>&1 | termpaste`)',
  noSuchFile: (file: string) => `no such file: ${file}`,
  notAFile: (file: string) => `not a file: ${file}`,
  unreadable: (file: string, why: string) => `cannot read ${file}: ${why}`,
  stdinTwice: '- (standard input) can be pasted only once',
  badUrl: (url: string) => `not an http(s) URL: ${url}`,
  badPasteRef: (ref: string) => `not a paste id or paste URL: ${ref}`,
  badExpiry: (value: string, choices: readonly string[]) =>
    `unknown expiry: ${value} (use ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)})`,
  visibilityClash: (flags: string[]) =>
    `${flags.join(' and ')} cannot be used together: a paste is public, unlisted or private`,
  nothingToChange:
    'nothing to change: give the new content (a FILE, or a pipe), --title, --lang, --public, --unlisted, --private or --expire',
  otherForum: (base: string, url: string) =>
    `${base} is not the forum you are logged in to (${url}): log in there first, or set TERMPASTE_URL`,
  noToken: 'no token given: paste one at the prompt, pipe it in, or set TERMPASTE_TOKEN',
  notLoggedIn: 'not logged in: run `termpaste login --url URL`, or set TERMPASTE_TOKEN and TERMPASTE_URL',
  noUrl: 'no forum URL: run `termpaste login --url URL`, or set TERMPASTE_URL',
  noSigningKey: (file: string) =>
    `no SSH key at ${file}: name one with --key (its public key must be in Settings → SSH KEYS)`,
  noSshKeygen: (program: string) => `cannot sign: ${program} not found (install OpenSSH 8.1 or later)`,
  signFailed: (why: string) => `ssh-keygen could not sign: ${why}`,
  signNeedsContent: '--sign signs the new content: give it (a FILE, or a pipe)',
  // Talking to the server (exit 1).
  unreachable: (url: string, why: string) => `cannot reach ${url} (${why}): check the URL and your network`,
  timedOut: (url: string, seconds: number) => `${url} did not answer within ${seconds} s`,
  badToken: (serverMessage: string | undefined, url: string) =>
    `the server refused the token${serverMessage ? ` (${serverMessage})` : ''}: log in again with \`termpaste login --url ${url}\``,
  forbidden: (serverMessage: string | undefined) =>
    `${serverMessage ?? 'refused'}: make a token with the scope this needs in Settings → ACCESS TOKENS`,
  /** 413: the server's message names its limit (PASTE_MAX_BYTES); a proxy's HTML page does not. */
  tooLarge: (what: string, serverMessage: string | undefined) =>
    serverMessage ? `${what}: ${serverMessage}` : `${what} is too large for the server`,
  /**
   * 422: the text holds what looks like a secret. Each finding a line (masked by the server), then the way to
   * publish anyway.
   */
  secretsFound: (
    what: string,
    serverMessage: string | undefined,
    findings: Array<{ rule: string; line: number; column: number; masked: string }>,
  ) =>
    [
      `${what}: ${serverMessage ?? 'possible secrets found'}; nothing was published`,
      ...findings.map((f) => `  line ${f.line}, column ${f.column}: ${f.rule} ${f.masked}`),
      'check the text, or run again with --allow-secrets to publish it anyway',
    ].join('\n'),
  /** 415: not UTF-8, or NUL bytes (a binary file). */
  notText: (what: string, serverMessage: string | undefined) =>
    serverMessage ? `${what}: ${serverMessage}` : `${what} is not UTF-8 text`,
  rateLimited: (retryAfterSeconds: number | undefined, serverMessage: string | undefined) =>
    `too many requests: try again ${retryAfterSeconds === undefined ? 'later' : `in ${retryAfterSeconds} s`}${
      serverMessage ? ` (${serverMessage})` : ''
    }`,
  serverError: (status: number, serverMessage: string | undefined) =>
    `the server answered ${status}${serverMessage ? `: ${serverMessage}` : ''}`,
  unexpectedAnswer: (status: number) =>
    `the server answered ${status} with something that is not Termpaste's`,
  // Success.
  loggedIn: (url: string, username: string, file: string) =>
    `Logged in to ${url} as ${username} (saved in ${file})`,
  noPastes: 'No pastes yet.',
  deleted: (url: string) => `Deleted ${url}`,
  tokenPrompt: 'Access token (input hidden): ',
} as const;
