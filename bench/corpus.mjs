// The benchmark's text: deterministic paragraphs, titles, code snippets and reply lines in the words
// people paste (eight topics, each in one paste of eight, and a Zipf-like long tail of other words),
// so that full-text search sees common words, rare words and phrases as on a real forum.
import { random } from '../harness/random.mjs';

/** Each paste has one topic (id % 8); its words are in about one paste in eight. */
export const TOPICS = [
  { words: ['kernel', 'panic', 'oops', 'driver', 'module', 'dmesg'], lead: 'kernel panic' },
  { words: ['docker', 'container', 'image', 'compose', 'volume', 'layer'], lead: 'docker container' },
  { words: ['postgres', 'vacuum', 'replication', 'wal', 'planner', 'tuple'], lead: 'postgres vacuum' },
  { words: ['react', 'component', 'hook', 'render', 'props', 'jsx'], lead: 'react component' },
  { words: ['python', 'virtualenv', 'pip', 'traceback', 'asyncio', 'pytest'], lead: 'python traceback' },
  { words: ['nginx', 'upstream', 'certificate', 'tls', 'proxy', 'location'], lead: 'nginx upstream' },
  { words: ['git', 'rebase', 'commit', 'merge', 'branch', 'reflog'], lead: 'git rebase' },
  { words: ['rust', 'cargo', 'borrow', 'lifetime', 'trait', 'crate'], lead: 'rust borrow' },
];

/** A word in about ten pastes of a million (the ids below), and in one of ten thousand. */
export const RARE_WORD = 'quasarflux';
export const RARE_EVERY = 100_003;
export const RARE_OFFSET = 17;

/**
 * Tags: each topic's own (on half its pastes), a Zipf-like spread of general ones (on two pastes of
 * three: the first very common, the last rare), and RARE_TAG on one paste in RARE_TAG_EVERY.
 */
export const TOPIC_TAGS = ['linux', 'docker', 'postgres', 'react', 'python', 'nginx', 'git', 'rust'];
export const GENERAL_TAGS = [
  'help',
  'question',
  'snippet',
  'config',
  'logs',
  'debug',
  'howto',
  'script',
  'error',
  'cli',
  'network',
  'security',
  'perf',
  'testing',
  'build',
  'deploy',
  'database',
  'shell',
  'api',
  'web',
  'cloud',
  'ci',
  'backup',
  'monitoring',
  'editor',
  'vim',
  'emacs',
  'regex',
  'unicode',
  'legacy',
];
export const RARE_TAG = 'quasar-tag';
export const RARE_TAG_EVERY = 9_973;
/** Languages: a code snippet's paste is typescript; else python's and rust's topics, the rest Markdown. */
export const TOPIC_LANGUAGES = [null, null, null, null, 'python', null, null, 'rust'];

/** What the benchmark searches for: a word in one paste of eight, the rare word, a phrase. */
export const SEARCHES = {
  common: 'docker',
  rare: RARE_WORD,
  phrase: '"kernel panic"',
  tag: 'tag:docker',
  tagRare: `tag:${RARE_TAG}`,
  lang: 'lang:python',
  user: 'user:member_1',
  // A third of the pastes end in a code snippet whose error text says 'failed': the negation drops them.
  negated: 'docker -failed',
  sortTop: 'kernel sort:top',
  inTitle: 'in:title nginx',
  featured: 'is:featured',
  combined: 'tag:docker lang:typescript "docker container"',
};

const COMMON = `time people year way day thing man world life hand part child eye woman place work week case
point number group problem fact after before under over again still never always often today later early
build run test fix log error warning file path line value output input request response server client
socket port host user account session token cache memory disk queue thread worker job task event signal
process system service config option flag default version release update upgrade install package library
function method class object array string number map list set table row column field record key index
query result status code message header body payload format parse encode decode hash secret random seed
start stop restart reload timeout retry backoff limit rate window batch stream buffer chunk block page
read write open close lock unlock commit abort wait sleep poll watch trace debug profile measure bench
local remote public private internal external network address route gateway bridge tunnel firewall rule
script shell terminal command prompt alias variable export source environment path home root admin owner
small large fast slow quick heavy light empty full broken stable flaky clean dirty fresh stale hot cold
first second third last next previous new old same other different simple complex common rare strange`
  .split(/\s+/)
  .filter(Boolean);

const SYLLABLES = [
  'ka',
  'zu',
  'mi',
  'tor',
  'vel',
  'qua',
  'nex',
  'ri',
  'do',
  'shan',
  'plo',
  'gri',
  'fen',
  'wy',
];

/** The filler vocabulary: common words first (most frequent), then made-up words for the long tail. */
function vocabulary() {
  const next = random(7);
  const topicWords = new Set(TOPICS.flatMap((topic) => topic.words));
  const words = COMMON.filter((word) => !topicWords.has(word));
  const seen = new Set(words);
  while (words.length < 4000) {
    const parts = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    if (!seen.has(word) && word !== RARE_WORD) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

function sentence(next, words, length) {
  const picked = [];
  for (let i = 0; i < length; i++) {
    // Log-uniform index: a Zipf-like law, a few words everywhere and a long tail of rare ones.
    picked.push(words[Math.min(words.length - 1, Math.floor(Math.pow(words.length, next())) - 1)]);
  }
  const text = picked.join(' ');
  return text[0].toUpperCase() + text.slice(1) + '.';
}

/** PARAGRAPHS_PER_TOPIC paragraphs (300–600 bytes) per topic, each opening on the topic's words. */
export const PARAGRAPHS_PER_TOPIC = 400;

export function paragraphs() {
  const next = random(42);
  const words = vocabulary();
  const rows = [];
  TOPICS.forEach((topic, t) => {
    for (let i = 0; i < PARAGRAPHS_PER_TOPIC; i++) {
      const own = topic.words.filter(() => next() < 0.5).join(' ');
      let body = `The ${topic.lead} ${own} ${sentence(next, words, 6 + Math.floor(next() * 6)).toLowerCase()}`;
      const target = 300 + Math.floor(next() * 300);
      while (body.length < target) body += ' ' + sentence(next, words, 6 + Math.floor(next() * 10));
      rows.push({ topic: t, n: i, body });
    }
  });
  return rows;
}

/** 64 code snippets with identifiers people search for (snake_case, camelCase, paths). */
export function snippets() {
  const next = random(99);
  const words = vocabulary().slice(0, 300);
  const pick = () => words[Math.floor(next() * words.length)];
  const rows = [];
  for (let i = 0; i < 64; i++) {
    const a = pick();
    const b = pick();
    const camel = `${a}${b[0].toUpperCase()}${b.slice(1)}`;
    rows.push(
      [
        '```ts',
        `export async function ${camel}(${a}_id: number): Promise<void> {`,
        `  const ${b} = await fetch(\`/api/${a}/\${${a}_id}/${b}\`);`,
        // An identifier inside a longer token (the english vector keeps `this.fooById` whole).
        `  const row = await this.${camel}ById(${a}_id);`,
        `  if (!${b}.ok) throw new Error('${a} ${b} failed: ' + ${b}.status);`,
        `  console.log('handle_${a}_${b}', await ${b}.json());`,
        '}',
        '```',
      ].join('\n'),
    );
  }
  return rows;
}

/** Titles: the topic's lead and a few words (25–90 characters). */
export function titles() {
  const next = random(5);
  const words = vocabulary();
  const rows = [];
  TOPICS.forEach((topic, t) => {
    for (let i = 0; i < 200; i++) {
      const text = `${topic.lead[0].toUpperCase()}${topic.lead.slice(1)}: ${sentence(next, words, 3 + Math.floor(next() * 8))}`;
      rows.push({ topic: t, n: i, title: text.slice(0, 90) });
    }
  });
  return rows;
}

/** One- to three-sentence replies. */
export function replyLines() {
  const next = random(11);
  const words = vocabulary();
  const rows = [];
  for (let i = 0; i < 2000; i++) {
    let text = sentence(next, words, 5 + Math.floor(next() * 12));
    if (next() < 0.5) text += ' ' + sentence(next, words, 5 + Math.floor(next() * 12));
    if (next() < 0.2) text += ` Try \`${words[Math.floor(next() * 50)]}\` first.`;
    rows.push(text);
  }
  return rows;
}
