import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { relativeTimeFrom } from './relative-time.js';

/**
 * Compares relativeTimeFrom with date-fns's formatDistance in a node of its own (where TZ takes effect),
 * around every threshold, over ten years, near daylight-saving changes, month ends and a leap day.
 */
const COMPARE = `
import { formatDistance } from ${JSON.stringify(pathToFileURL(require.resolve('date-fns/formatDistance')).href)};
import { relativeTimeFrom } from './relative-time.mjs';

let state = 7919;
const next = () => ((state = (state * 1103515245 + 12345) % 2147483648), state / 2147483648);
const MINUTE = 60000;
const DAY = 24 * 60 * MINUTE;
const edges = [0, 1, 29, 30, 31, 59, 60, 89, 90, 119, 120, 2640, 2700, 5340, 5400, 84600]
  .flatMap((s) => [s * 1000 - 1, s * 1000, s * 1000 + 1, s * 1000 + 500]);
const days = [1, 1.5, 1.74, 1.76, 2, 29.5, 30, 31, 59, 60, 61, 89, 300, 364, 365, 366, 455, 456, 640, 700, 730]
  .flatMap((d) => [d * DAY - MINUTE, d * DAY, d * DAY + MINUTE]);
const spread = Array.from({ length: 2000 }, () => Math.floor(next() ** 3 * 10 * 365 * DAY));
const nows = [
  new Date(2026, 0, 31, 12), new Date(2024, 1, 29, 23, 30), new Date(2026, 2, 29, 2, 30),
  new Date(2026, 2, 8, 3, 30), new Date(2026, 9, 25, 1, 15), new Date(2026, 10, 1, 0, 0, 30),
  new Date(2026, 3, 5, 2, 15),
  ...Array.from({ length: 15 }, () => new Date(Date.UTC(2020, 0, 1) + Math.floor(next() * 10 * 365 * DAY))),
];
const mismatches = [];
let compared = 0;
for (const now of nows)
  for (const ms of [...edges, ...days, ...spread].filter((ms) => ms >= 0))
    for (const date of [new Date(+now - ms), new Date(+now + ms)]) {
      compared += 1;
      const expected = formatDistance(date, now, { addSuffix: true });
      const actual = relativeTimeFrom(date, now);
      if (actual !== expected) mismatches.push(date.toISOString() + ' from ' + now.toISOString() + ': ' + actual + ' / ' + expected);
    }
console.log(JSON.stringify({ compared, offsets: [new Date(2026, 0, 1).getTimezoneOffset(), new Date(2026, 6, 1).getTimezoneOffset()], mismatches: mismatches.slice(0, 5) }));
`;

describe('relativeTimeFrom', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'relative-time-'));
    const source = readFileSync(path.join(__dirname, 'relative-time.ts'), 'utf8');
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    writeFileSync(path.join(dir, 'relative-time.mjs'), outputText);
    writeFileSync(path.join(dir, 'compare.mjs'), COMPARE);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads like "about 2 hours ago" and "in 3 days"', () => {
    const now = new Date(2026, 4, 17, 12);
    expect(relativeTimeFrom(new Date(+now - 2 * 3_600_000), now)).toBe('about 2 hours ago');
    expect(relativeTimeFrom(new Date(+now + 3 * 86_400_000), now)).toBe('in 3 days');
    expect(relativeTimeFrom(now, now)).toBe('less than a minute ago');
  });

  it.each([
    ['UTC', [0, 0]],
    ['Europe/Berlin', [-60, -120]],
    ['America/New_York', [300, 240]],
    ['Australia/Lord_Howe', [-660, -630]],
  ])('reads as date-fns formatDistance with addSuffix (TZ=%s)', (zone, offsets) => {
    const output = execFileSync(process.execPath, [path.join(dir, 'compare.mjs')], {
      env: { ...process.env, TZ: zone },
      encoding: 'utf8',
    });
    const result = JSON.parse(output) as { compared: number; offsets: number[]; mismatches: string[] };
    expect(result.offsets).toEqual(offsets);
    expect(result.compared).toBeGreaterThan(80_000);
    expect(result.mismatches).toEqual([]);
  });
});
