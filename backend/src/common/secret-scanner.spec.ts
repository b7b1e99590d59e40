import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { maskSecret } from '@termpaste/contracts';
import { GCP_SERVICE_ACCOUNT_JSON, SECRET_SAMPLES } from '../../test/support/secret-samples.js';
import { scanSecrets } from './secret-scanner.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');

describe('scanSecrets', () => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.family, sample.rule, sample] as const))(
    'finds a %s secret (%s), masked, with its line and column',
    async (_family, rule, sample) => {
      const text = `Here is my config:\n\n  ${sample.text}\nthanks\n`;
      const findings = await scanSecrets(text);
      expect(findings).toEqual([
        { rule, line: 3, column: 3 + sample.text.indexOf(sample.value), masked: maskSecret(sample.value) },
      ]);
      expect(JSON.stringify(findings)).not.toContain(sample.value);
    },
  );

  it('finds a GCP service account key file (and the private key in it)', async () => {
    const findings = await scanSecrets(GCP_SERVICE_ACCOUNT_JSON);
    expect(findings).toEqual([
      { rule: 'gcp:PrivateKeyJSON', line: 1, column: 1, masked: '*'.repeat(32) },
      { rule: 'privatekey:PrivateKey', line: 5, column: 19, masked: '----' + '*'.repeat(32) },
    ]);
  });

  it('finds each secret of a text, in order, on its own line', async () => {
    const text = SECRET_SAMPLES.filter((sample) => !sample.text.includes('\n'))
      .map((sample) => sample.text)
      .join('\n');
    const findings = await scanSecrets(text);
    expect(findings.map((finding) => finding.line)).toEqual(findings.map((_, index) => index + 1));
  });

  it('counts columns in UTF-16 units after a CRLF and wide characters', async () => {
    const [aws] = SECRET_SAMPLES;
    const findings = await scanSecrets(`first\r\n🙂 é ${aws!.value}`);
    expect(findings).toEqual([expect.objectContaining({ line: 2, column: 6 })]);
  });

  it.each([
    ['README.md'],
    ['docs/configuration.md'],
    ['docs/api.md'],
    ['package-lock.json'],
    ['backend/src/modules/pastes/paste-intake.ts'],
    ['frontends/ui/src/theme.css'],
    ['contracts/src/tokens.ts'],
  ])('finds nothing in ordinary code and prose (%s)', async (file) => {
    const text = readFileSync(join(root, file), 'utf8').slice(0, 1_048_576);
    expect(await scanSecrets(text)).toEqual([]);
  });

  it('leaves alone what only looks like a secret', async () => {
    const text = [
      'AKIAIOSFODNN7EXAMPLE', // AWS's own documentation example
      'postgres://user:password@localhost/db', // a placeholder password
      'postgres://localhost:5432/termpaste', // no password at all
      'tp_short', // not a whole token
      `${'x'.repeat(3)}tp_${'a'.repeat(40)}`, // inside a longer word
      'eyJhbGciOiJIUzI1NiJ9', // a JWT header alone
      'aws_account_id = 1234-5678-9012', // an account number is no credential
      'The quick brown fox jumps over the lazy dog; sha512-abcDEF0123456789+/==',
    ].join('\n');
    expect(await scanSecrets(text)).toEqual([]);
  });

  it('keeps nothing of a scan: no performance marks or measures pile up, paste after paste', async () => {
    const before = performance.getEntries().length;
    for (let i = 0; i < 20; i++) await scanSecrets(`paste ${i}: nothing secret here\n`);
    // A turn of the event loop: secretlint's profiler (when on) measures in a later microtask.
    await new Promise((resolve) => setImmediate(resolve));
    expect(performance.getEntries().length).toBe(before);
  });

  it('scans a 1 MiB paste of ordinary code and finds nothing (its time is a goal of bench/secret-scan.mjs)', async () => {
    const line = 'const total = items.reduce((sum, item) => sum + item.price * item.quantity, 0); // ok\n';
    const text = line.repeat(Math.ceil(1_048_576 / line.length)).slice(0, 1_048_576);
    expect(await scanSecrets(text)).toEqual([]);
  });
});
