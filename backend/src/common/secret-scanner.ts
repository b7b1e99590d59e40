import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommendedPreset } from '@secretlint/secretlint-rule-preset-recommend';
import { maskSecret, type SecretFinding, TOKEN_PREFIX, TOKEN_RANDOM_LENGTH } from '@termpaste/contracts';

/*
 * Secret scanning: secretlint's recommended preset with AWS access key IDs on, plus what it lacks: our
 * own `tp_` tokens, JSON Web Tokens and GCP API keys (the last two as gitleaks writes them).
 */

/**
 * secretlint marks every rule run with `performance.mark()` and keeps every mark for the process's life
 * (0.3 ms a paste, memory growing without end). 13.1 can turn it off but wants Node 22, so its marking
 * method does nothing here; 'keeps nothing of a scan' fails while marks pile up. docs/backend.md.
 */
secretLintProfiler.mark = () => undefined;

const PRESET_ID = '@secretlint/secretlint-rule-preset-recommend';
const RULE_PREFIX = '@secretlint/secretlint-rule-';

const CONFIG: Parameters<typeof lintSource>[0]['options']['config'] = {
  rules: [
    {
      id: PRESET_ID,
      rule: recommendedPreset,
      // Access key IDs (AKIA…) are off by default in secretlint: a paste with one is just what must be
      // stopped.
      rules: [{ id: `${RULE_PREFIX}aws`, options: { enableIDScanRule: true } }],
    },
  ],
};

/**
 * AWS account IDs (`account_id = 1234-5678-9012`) come with the access key ID scan: an account number
 * is no credential, and shows in ordinary configuration and docs.
 */
const IGNORED_RULES = new Set(['aws:AWSAccountID']);

/** Our own rules: a name (`family:kind`, as the preset's findings are named) and a global pattern. */
const OWN_RULES: ReadonlyArray<{ rule: string; pattern: RegExp }> = [
  {
    rule: 'termpaste:AccessToken',
    pattern: new RegExp(
      `(?<![0-9A-Za-z_])${TOKEN_PREFIX}[0-9A-Za-z]{${TOKEN_RANDOM_LENGTH}}(?![0-9A-Za-z])`,
      'g',
    ),
  },
  // Header and payload are base64url JSON objects (`{"` → `eyJ`), then a signature (empty with alg none).
  {
    rule: 'jwt:JSONWebToken',
    pattern: /(?<![0-9A-Za-z_-])eyJ[0-9A-Za-z_-]{10,}\.eyJ[0-9A-Za-z_-]{10,}\.[0-9A-Za-z_-]*/g,
  },
  { rule: 'gcp:APIKey', pattern: /(?<![0-9A-Za-z_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
];

/** A finding before its line and column: where it starts (a UTF-16 index) and the value it found. */
interface RawFinding {
  rule: string;
  index: number;
  value: string;
}

/** `family:kind` of a secretlint message: `@secretlint/secretlint-rule-aws` + `AWSAccessKeyID`. */
function ruleName(ruleId: string, messageId: string | undefined): string {
  const family = ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId;
  return messageId ? `${family}:${messageId}` : family;
}

async function presetFindings(content: string): Promise<RawFinding[]> {
  // The GCP rule reads service account keys only from `.json` files: a paste that looks like JSON is one.
  const ext = /^\s*\{/.test(content) ? '.json' : '.txt';
  const result = await lintSource({
    source: { filePath: `paste${ext}`, ext, content, contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: false },
  });
  const found: RawFinding[] = [];
  for (const message of result.messages) {
    const rule = ruleName(message.ruleId, message.messageId);
    if (IGNORED_RULES.has(rule)) continue;
    found.push(locate(content, rule, message.range, message.data as Record<string, unknown> | undefined));
  }
  return found;
}

/**
 * Where a secretlint finding's value is: some rules report a range that starts at the match and has
 * the length of its secret (AWS's `aws_secret_access_key = …`), so the value is looked for from there.
 */
function locate(
  content: string,
  rule: string,
  range: readonly [number, number],
  data: Record<string, unknown> | undefined,
): RawFinding {
  const values = Object.values(data ?? {}).filter(
    (value): value is string => typeof value === 'string' && value.length > 0,
  );
  for (const value of values) {
    const index = content.indexOf(value, range[0]);
    if (index >= 0 && index <= range[1]) return { rule, index, value };
  }
  return { rule, index: range[0], value: content.slice(range[0], range[1]) };
}

function ownFindings(content: string): RawFinding[] {
  const found: RawFinding[] = [];
  for (const { rule, pattern } of OWN_RULES) {
    for (const match of content.matchAll(pattern)) found.push({ rule, index: match.index, value: match[0] });
  }
  return found;
}

/** The 1-based line and column (in UTF-16 units, as editors count them) of each index, in one pass. */
function positions(content: string, indexes: number[]): Map<number, { line: number; column: number }> {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const at = new Map<number, { line: number; column: number }>();
  let line = 1;
  let lineStart = 0;
  let cursor = 0;
  for (const index of sorted) {
    for (let next = content.indexOf('\n', cursor); next !== -1 && next < index;) {
      line += 1;
      lineStart = next + 1;
      cursor = lineStart;
      next = content.indexOf('\n', cursor);
    }
    at.set(index, { line, column: index - lineStart + 1 });
  }
  return at;
}

/**
 * The secrets in `content`, in the order they appear (one finding per rule and place), each masked.
 * Never throws on what a text holds; an error of the scanner itself is a bug and propagates.
 */
export async function scanSecrets(content: string): Promise<SecretFinding[]> {
  const raw = [...(await presetFindings(content)), ...ownFindings(content)];
  const seen = new Set<string>();
  const unique = raw
    .sort((a, b) => a.index - b.index || a.rule.localeCompare(b.rule))
    .filter((finding) => {
      const key = `${finding.rule}@${finding.index}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const at = positions(
    content,
    unique.map((finding) => finding.index),
  );
  return unique.map((finding) => ({
    rule: finding.rule,
    ...at.get(finding.index)!,
    masked: maskSecret(finding.value),
  }));
}

/** The possible secrets in `content` themselves, each once (to find which other texts still hold them). */
export async function secretValues(content: string): Promise<string[]> {
  const raw = [...(await presetFindings(content)), ...ownFindings(content)];
  return [...new Set(raw.map((finding) => finding.value))];
}
