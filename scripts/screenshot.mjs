// `node scripts/screenshot.mjs`: makes docs/screenshot.png, the README's picture of the home page. Starts
// the built forum (`npm run build` first) on a fresh embedded database in a temporary folder, registers
// three members, posts a few pastes with replies and votes, and takes the home page at 1280×800 in
// Chromium (CHROMIUM_PATH, default /usr/bin/chromium), signed in as the first member.
import { mkdtempSync, readdirSync, readFileSync, rmSync, chmodSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { root } from '../harness/paths.mjs';
import { Proc } from '../harness/proc.mjs';
import { PASSWORD, User } from '../harness/user.mjs';
import { mailText } from '../harness/smtp.mjs';
import { freePort, waitFor } from '../harness/wait.mjs';

const OUT = join(root, 'docs/screenshot.png');
const PASTES = [
  [
    'nginx: 502 after reload',
    'Reloading nginx drops the upstream for a second:\n\n```\nconnect() failed (111)\n```',
  ],
  [
    'fizzbuzz in one line of awk',
    '```awk\nBEGIN{for(i=1;i<=15;i++)print i%15?i%5?i%3?i:"Fizz":"Buzz":"FizzBuzz"}\n```',
  ],
  [
    'Why does my Dockerfile rebuild every time?',
    'COPY . . comes before npm ci, so any change busts the cache.',
  ],
  ['strace of a hung git fetch', '```\nppoll([{fd=3, events=POLLIN}], 1, NULL, NULL, 8\n```'],
  [
    'bash: retry a command until it works',
    '```bash\nuntil curl -fs localhost:3000/api/ready; do sleep 1; done\n```',
  ],
  [
    'Rust: read a file line by line',
    '```rust\nfor line in BufReader::new(File::open(path)?).lines() {}\n```',
  ],
  ['A tiny Makefile for C projects', '```make\nCFLAGS ?= -O2 -Wall\nall: main\n```'],
  [
    'PostgreSQL: find the slowest queries',
    '```sql\nSELECT query, mean_exec_time FROM pg_stat_statements\nORDER BY 2 DESC LIMIT 5;\n```',
  ],
];

const dataDir = mkdtempSync(join(tmpdir(), 'termpaste-screenshot-'));
// The embedded PostgreSQL runs as `postgres` when we are root: it must be able to enter the folder.
chmodSync(dataDir, 0o755);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  PORT: String(port),
  DATA_DIR: dataDir,
  RATE_LIMITS: 'off',
  VIEW_FLUSH_SECONDS: '1',
  // Many posts from accounts a minute old is a burst the spam rules hold for review.
  MODERATION_BURST_POSTS: '1000',
};
const app = new Proc('forum', process.execPath, ['backend/dist/main.js'], { env, logDir: dataDir });
try {
  await waitFor(
    'the forum to answer',
    async () => (await fetch(`${url}/api/ready`).catch(() => null))?.ok,
    60_000,
  );
  const outbox = join(dataDir, 'outbox');
  const readMails = () => {
    try {
      return readdirSync(outbox)
        .filter((name) => name.endsWith('.eml'))
        .map((name) => readFileSync(join(outbox, name), 'utf8'));
    } catch {
      return [];
    }
  };
  const members = [];
  for (const username of ['ada', 'linus', 'grace']) {
    const member = new User(url, { username, email: `${username}@example.com` });
    const res = await member.post('/api/register', { username, email: member.email, password: PASSWORD });
    if (res.status !== 201)
      throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    const token = await waitFor(`the verification mail to ${member.email}`, () => {
      const mail = readMails()
        .map(mailText)
        .find((text) => text.includes(member.email));
      return mail && /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    });
    await member.post('/api/verify-email', { token });
    members.push(member);
  }
  for (const [index, [title, content]] of PASTES.entries()) {
    const author = members[index % members.length];
    const paste = await author.post('/api/threads', { title, content });
    if (paste.status !== 201)
      throw new Error(`paste "${title}": ${paste.status} ${JSON.stringify(paste.body)}`);
    for (const other of members.filter((member) => member !== author).slice(0, index % 3)) {
      await other.post(`/api/threads/${paste.body.id}/replies`, {
        content: `Works here too, thanks ${author.username}!`,
      });
      await other.post('/api/votes', { threadId: paste.body.id, value: 1 });
    }
    for (const member of members.slice(0, 1 + (index % 3))) await member.get(`/api/threads/${paste.body.id}`);
  }

  const { chromium } = createRequire(join(root, 'e2e/package.json'))('@playwright/test');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [name, value] = members[0].cookie.split('=');
    await context.addCookies([{ name, value, url }]);
    const page = await context.newPage();
    // The views counted above reach the database within VIEW_FLUSH_SECONDS.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await page.goto(url);
    await page.getByText(PASTES.at(-1)[0]).first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: OUT });
  } finally {
    await browser.close();
  }
  console.log(`${OUT}: ${Math.round(statSync(OUT).size / 1024)} KB`);
} finally {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
