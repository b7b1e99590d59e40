/*
 * The notification mails' and digests' two parts: plain text, and HTML in the site's terminal look as far
 * as mail clients allow (inline styles only, a table for the frame, a dark background, monospace).
 */

/** The site's colours (frontends/ui theme.css), inlined: mail clients drop style sheets. */
const COLORS = {
  bg: '#0a0e0a',
  raised: '#0e140f',
  fg: '#c9f7d2',
  strong: '#ecfff0',
  accent: '#33ff66',
  muted: '#7aa886',
  border: '#1e3a25',
} as const;

const MONO = "ui-monospace, 'JetBrains Mono', Menlo, Consolas, 'Courier New', monospace";

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/** One line of a mail: a text, its link, and a muted note after it (votes, the kind). */
export interface MailItem {
  text: string;
  url: string;
  note?: string;
}

/** A footer link: what it does, where. */
export interface MailLink {
  label: string;
  url: string;
}

export interface MailBody {
  productName: string;
  /** The prompt line's command, as in the site's cards (`tail ~/notifications`). */
  command: string;
  greeting: string;
  intro: string;
  items: MailItem[];
  /** Shown under the items: the notifications page, the preferences, the unsubscribe links. */
  links: MailLink[];
}

export function mailText(body: MailBody): string {
  const items = body.items.map(
    (item) => `* ${item.text}${item.note ? ` (${item.note})` : ''}\n  ${item.url}`,
  );
  const links = body.links.map((link) => `${link.label}: ${link.url}`);
  return [body.greeting, '', body.intro, '', ...items, '', '--', ...links, ''].join('\n');
}

/** A note's parts (`40 votes · 9 replies · by alice`) each kept on one line: a narrow screen breaks between them. */
function noteHtml(note: string): string {
  return note
    .split(' · ')
    .map((part) => `<span style="white-space:nowrap">${escapeHtml(part)}</span>`)
    .join(' · ');
}

export function mailHtml(body: MailBody): string {
  const e = escapeHtml;
  const link = (url: string, text: string, color: string = COLORS.accent) =>
    `<a href="${e(url)}" style="color:${color};text-decoration:underline">${text}</a>`;
  // The marker in a column of its own: a long title wraps, and its note sits, under the title's first letter.
  const items = body.items
    .map((item, i) => {
      // A rule between items; the footer's own border closes the list.
      const rule = i < body.items.length - 1 ? `border-bottom:1px solid ${COLORS.border};` : '';
      const note = item.note
        ? `<br><span style="color:${COLORS.muted};font-size:12px">[${noteHtml(item.note)}]</span>`
        : '';
      return (
        `<tr><td width="16" valign="top" style="width:16px;padding:6px 0;${rule}color:${COLORS.accent}">&gt;</td>` +
        `<td style="padding:6px 0;${rule}color:${COLORS.fg}">${link(item.url, e(item.text), COLORS.strong)}${note}</td></tr>`
      );
    })
    .join('\n');
  const links = body.links
    .map((l) => `<div style="margin:4px 0">${link(l.url, e(l.label), COLORS.muted)}</div>`)
    .join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="color-scheme" content="dark"><title>${e(body.productName)}</title></head>
<body style="margin:0;padding:0;background:${COLORS.bg}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="${COLORS.bg}" style="background:${COLORS.bg}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="${COLORS.raised}" style="max-width:640px;background:${COLORS.raised};border:1px solid ${COLORS.border};font-family:${MONO};font-size:14px;line-height:1.6;color:${COLORS.fg}">
<tr><td style="padding:10px 16px;border-bottom:1px solid ${COLORS.border};color:${COLORS.accent}">${e(body.productName.toLowerCase())}:~$ ${e(body.command)}</td></tr>
<tr><td style="padding:16px">
<p style="margin:0 0 8px;color:${COLORS.strong}">${e(body.greeting)}</p>
<p style="margin:0 0 12px">${e(body.intro)}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="font-family:${MONO};font-size:14px">
${items}
</table>
</td></tr>
<tr><td style="padding:12px 16px;border-top:1px solid ${COLORS.border};font-size:12px;color:${COLORS.muted}">
${links}
</td></tr>
</table>
</td></tr>
</table>
</body></html>
`;
}
