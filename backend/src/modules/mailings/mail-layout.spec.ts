import { mailHtml } from './mail-layout.js';

const body = (notes: string[]) => ({
  productName: 'Termpaste',
  command: 'top --week',
  greeting: 'Hello bob,',
  intro: 'The top pastes:',
  items: notes.map((note, i) => ({ text: `Paste ${i}`, url: `http://x/thread/${i}`, note })),
  links: [],
});

describe('mailHtml', () => {
  it("keeps each part of an item's note on one line, escaped", () => {
    const html = mailHtml(body(['40 votes · by <bob>']));
    expect(html).toContain(
      '[<span style="white-space:nowrap">40 votes</span> · <span style="white-space:nowrap">by &lt;bob&gt;</span>]',
    );
  });

  it('puts the marker in a column of its own, and a rule between items only', () => {
    const rows = mailHtml(body(['one', 'two'])).match(/<tr><td width="16" valign="top"[\s\S]*?<\/tr>/g) ?? [];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^<tr><td [^>]*>&gt;<\/td><td [^>]*><a [^>]*>Paste 0<\/a>/);
    expect(rows[0]!.match(/border-bottom:1px solid/g)).toHaveLength(2);
    expect(rows[1]).not.toContain('border-bottom');
  });
});
