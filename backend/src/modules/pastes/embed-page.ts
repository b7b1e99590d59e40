import { createRequire } from 'node:module';
import { EMBED_LINES_MAX } from '@termpaste/contracts';
import { ANSI } from './languages.js';
import { xmlEscape } from './atom.js';

/** What an embed shows of its paste. */
export interface EmbedPaste {
  title: string;
  content: string;
  /** A highlight.js language, `ansi`, or null (Markdown, shown as its source). */
  language: string | null;
  author: string | null;
  /** Absolute: the paste's page, where the embed links back. */
  pasteUrl: string;
}

type HighlightJs = typeof import('highlight.js').default;
let hljs: HighlightJs | undefined;

/** highlight.js, loaded on the first embed (CommonJS: its ESM entry only wraps this one). */
function highlighter(): HighlightJs {
  hljs ??= createRequire(import.meta.url)('highlight.js') as HighlightJs;
  return hljs;
}

// eslint-disable-next-line no-control-regex -- terminal escapes are what it removes
const ANSI_ESCAPE = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** The text's lines (a final line feed ends the last line, it does not start another). */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The code as highlighted HTML (highlight.js's classes, escaped), plain escaped text for no grammar. */
function highlighted(code: string, language: string | null): string {
  if (language === ANSI) return xmlEscape(code.replace(ANSI_ESCAPE, ''));
  const name = language ?? 'markdown';
  const hl = highlighter();
  if (!hl.getLanguage(name)) return xmlEscape(code);
  return hl.highlight(code, { language: name, ignoreIllegals: true }).value;
}

/**
 * The terminal palette of the site's theme (frontends/ui theme.css), for the few classes a paste uses.
 * Inline: the page loads nothing else.
 */
const STYLE = `
*{box-sizing:border-box}
html,body{margin:0;height:100%;background:#070a07;color:#c9f7d2;
font:13px/1.5 ui-monospace,'JetBrains Mono','Fira Code',Menlo,Consolas,monospace}
.e{display:flex;flex-direction:column;height:100%;border:1px solid #1e3a25;border-left:2px solid #1fb34a}
header{display:flex;gap:8px;align-items:center;padding:4px 8px;border-bottom:1px solid #1e3a25;
background:#0e140f;font-size:12px;min-width:0}
header .t{flex:1 1 auto;min-width:8ch;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:#ecfff0;
font-weight:700;text-decoration:none}
header .m{color:#7aa886;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
header .b{white-space:nowrap}
@media (max-width:480px){header .m{display:none}}
a{color:#33ff66}
a:hover,a:focus-visible{text-decoration:underline}
.s{flex:1;overflow:auto;display:flex;align-items:flex-start;min-height:0}
pre{margin:0;padding:8px 0;font:inherit;white-space:pre;tab-size:4}
.n{position:sticky;left:0;flex:none;padding:8px 12px 8px 8px;border-right:1px solid #1e3a25;background:#070a07;
color:#7aa886;text-align:right;user-select:none}
.c{flex:1 0 auto;padding:8px 16px 8px 12px}
.more{padding:4px 8px;border-top:1px solid #1e3a25;color:#7aa886;font-size:12px}
.hljs-comment,.hljs-quote{color:#5f8a6a;font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#4dd0ff}
.hljs-string,.hljs-regexp,.hljs-addition{color:#ffd24d}
.hljs-number,.hljs-literal,.hljs-symbol,.hljs-bullet{color:#ff8c42}
.hljs-title,.hljs-section,.hljs-name{color:#33ff66}
.hljs-attr,.hljs-attribute,.hljs-variable,.hljs-template-variable,.hljs-property{color:#a0e8b0}
.hljs-type,.hljs-title.class_{color:#c084fc}
.hljs-meta,.hljs-params{color:#c9f7d2}
.hljs-deletion{color:#ff7066}
.hljs-emphasis{font-style:italic}
.hljs-strong{font-weight:700}
`.replace(/\n/g, '');

/** A page's frame: the document, its styles and `body`. */
function page(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${xmlEscape(title)}</title><style>${STYLE}</style>` +
    `</head><body>${body}</body></html>`
  );
}

/** A link that leaves the frame for the site (a new tab, not inside the host's page). */
const out = (href: string, className: string, text: string) =>
  `<a class="${className}" href="${xmlEscape(href)}" target="_blank" rel="noopener">${text}</a>`;

/**
 * The embed: the paste's title (a link back), its language and size, then its first EMBED_LINES_MAX lines
 * with their numbers, highlighted on the server. No script.
 */
export function embedPage(paste: EmbedPaste, productName: string): string {
  const all = linesOf(paste.content);
  const shown = all.slice(0, EMBED_LINES_MAX);
  const numbers = shown.map((_, index) => index + 1).join('\n');
  const language = paste.language ?? 'markdown';
  const facts = [language, `${all.length} line${all.length === 1 ? '' : 's'}`];
  if (paste.author) facts.push(`by ${xmlEscape(paste.author)}`);
  const more =
    all.length > shown.length
      ? `<div class="more">${all.length - shown.length} more lines: ` +
        `${out(paste.pasteUrl, 'x', 'the whole paste')}</div>`
      : '';
  return page(
    `${paste.title} · ${productName}`,
    '<div class="e"><header>' +
      out(paste.pasteUrl, 't', xmlEscape(paste.title)) +
      `<span class="m">${facts.join(' · ')}</span>` +
      out(paste.pasteUrl, 'b', `${xmlEscape(productName)} ↗`) +
      '</header><div class="s" tabindex="0" role="region" aria-label="Code">' +
      `<pre class="n" aria-hidden="true">${numbers}</pre>` +
      `<pre class="c"><code>${highlighted(shown.join('\n'), paste.language)}</code></pre>` +
      `</div>${more}</div>`,
  );
}

/** What /embed answers for a paste that cannot be embedded (framable too: it shows in the host's page). */
export function embedNotFoundPage(productName: string, homeUrl: string): string {
  return page(
    `Not found · ${productName}`,
    '<div class="e"><header><span class="t">Paste not found</span></header>' +
      '<p style="padding:8px">This paste does not exist, or cannot be embedded. ' +
      `${out(homeUrl, 'h', xmlEscape(productName))}</p></div>`,
  );
}
