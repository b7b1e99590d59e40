import type { PasteCard, PasteDetail, PeopleList, RecentPastesPage } from '@termpaste/contracts';
import { API } from '@termpaste/contracts';
import { memberPaintOf, paintMemberPage, PAINT_CODE_LINES, PAINT_REPLIES } from '../src/http/member-paint.js';

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&</div></main><!--`;
const ESCAPED =
  '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;&quot;&#x27;&amp;&lt;/div&gt;&lt;/main&gt;&lt;!--';

const author = (id: number, username = `member${id}`) => ({ id, username }) as PasteCard['author'];

function card(id: number, over: Partial<PasteCard> = {}): PasteCard {
  return {
    id,
    title: `Paste ${id}`,
    createdAt: '2026-11-28T10:00:00.000Z',
    author: author(1),
    viewCount: 3,
    voteScore: 0,
    replyCount: 1,
    isPinned: false,
    isLocked: false,
    isFeatured: false,
    lastReplyAt: null,
    lastReplyAuthor: null,
    visibility: 'public',
    expiresAt: null,
    tags: [],
    ...over,
  } as PasteCard;
}

function detail(over: Partial<PasteDetail> = {}): PasteDetail {
  return {
    ...card(7),
    content: 'First paragraph.\n\nSecond.',
    burnAfterReading: false,
    forkedFrom: null,
    forkCount: 0,
    language: null,
    editedAt: null,
    myVote: null,
    hidden: false,
    replies: [],
    ...over,
  } as PasteDetail;
}

const people = (...ids: number[]): PeopleList =>
  ({ members: ids.map((id) => ({ member: author(id), createdAt: '' })) }) as PeopleList;

/** A reader of the API's answers by path, as the member's cookie would get them. */
function reader(answers: Record<string, unknown>) {
  const asked: string[] = [];
  const read = <T>(path: string) => {
    asked.push(path);
    return Promise.resolve((path in answers ? answers[path] : null) as T | null);
  };
  return { read, asked };
}

const ME = { id: 9, username: 'me' };
const NOBODY = { [API.userMutes]: people(), [API.userBlocks]: people(), [API.currentUser]: ME };

describe("a member's painted first screen", () => {
  it('paints home and paste addresses only', () => {
    expect(memberPaintOf('/')).toEqual({ page: 'home' });
    expect(memberPaintOf('/thread/12')).toEqual({ page: 'paste', ref: '12' });
    expect(memberPaintOf('/thread/aB3_x-9')).toEqual({ page: 'paste', ref: 'aB3_x-9' });
    for (const path of ['/thread/new', '/thread/12/revisions', '/search', '/thread/<x>', '/profile/1'])
      expect(memberPaintOf(path)).toBeNull();
  });

  it('escapes every member-written string on home: a title can never become markup', async () => {
    const { read } = reader({
      ...NOBODY,
      [API.threadsRecent]: {
        pinned: [],
        threads: [card(1, { title: HOSTILE, author: author(2, HOSTILE) })],
        nextCursor: null,
        total: 1,
      } as RecentPastesPage,
    });
    const { html, queries } = (await paintMemberPage({ page: 'home' }, read))!;
    expect(html).toContain(ESCAPED);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('RECENT PASTES');
    // What it was drawn from, by the app's query keys: the app starts with it.
    expect(queries.map(([key]) => key)).toEqual([[API.currentUser], [API.threadsRecent]]);
    expect(queries[1]![1]).toMatchObject({ pageParams: [null], pages: [{ total: 1 }] });
  });

  it('shows Markdown as written, escaped, a paragraph a block, and reads the paste without counting a view', async () => {
    const { read, asked } = reader({
      ...NOBODY,
      [`${API.thread('7')}?refresh=true`]: detail({
        title: HOSTILE,
        content: `# Title\n\n${HOSTILE}\n\n[link](javascript:alert(3))`,
        replies: [
          {
            id: 1,
            threadId: 7,
            parentId: null,
            content: `**reply** ${HOSTILE}`,
            createdAt: '',
            editedAt: null,
            author: author(3, HOSTILE),
            voteScore: 0,
            myVote: null,
            deleted: false,
            hidden: false,
          } as PasteDetail['replies'][number],
        ],
      }),
    });
    const { html } = (await paintMemberPage({ page: 'paste', ref: '7' }, read))!;
    expect(asked).toContain('/api/threads/7?refresh=true');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain(`<p># Title</p><p>${ESCAPED}</p><p>[link](javascript:alert(3))</p>`);
    expect(html).toContain(`<p>**reply** ${ESCAPED}</p>`);
  });

  it('paints a code paste as its first lines, escaped, and the first replies only', async () => {
    const code = Array.from({ length: 2000 }, (_, n) => `line ${n + 1} </code><b>`).join('\n');
    const replies = Array.from({ length: 200 }, (_, n) => ({
      id: n + 1,
      threadId: 7,
      parentId: null,
      content: `reply ${n + 1}`,
      createdAt: '',
      editedAt: null,
      author: author(3),
      voteScore: 0,
      myVote: null,
      deleted: false,
      hidden: false,
    })) as PasteDetail['replies'];
    const { read } = reader({
      ...NOBODY,
      [`${API.thread('7')}?refresh=true`]: detail({ content: code, language: 'javascript', replies }),
    });
    const { html } = (await paintMemberPage({ page: 'paste', ref: '7' }, read))!;
    expect(html.match(/class="cv-line"/g)).toHaveLength(PAINT_CODE_LINES);
    expect(html).toContain('line 1 &lt;/code&gt;&lt;b&gt;');
    expect(html).not.toContain(`line ${PAINT_CODE_LINES + 1} `);
    expect(html.match(/class="forum-reply"/g)).toHaveLength(PAINT_REPLIES);
  });

  it('never paints what the member muted or blocked, nor a paste it cannot show', async () => {
    const recent = {
      pinned: [],
      threads: [card(1, { author: author(5) }), card(2)],
      nextCursor: null,
      total: 2,
    };
    const home = await paintMemberPage(
      { page: 'home' },
      reader({ ...NOBODY, [API.userMutes]: people(5), [API.threadsRecent]: recent }).read,
    );
    expect(home?.html).not.toContain('Paste 1<');
    expect(home?.html).toContain('Paste 2<');
    const paste = `${API.thread('7')}?refresh=true`;
    // A blocked author's paste; one that burns after reading; the API's 404; the lists unreadable.
    for (const answers of [
      { ...NOBODY, [API.userBlocks]: people(1), [paste]: detail() },
      { ...NOBODY, [API.currentUser]: null, [paste]: detail() },
      { ...NOBODY, [paste]: detail({ burnAfterReading: true, content: undefined }) },
      { ...NOBODY },
      { [paste]: detail() },
    ])
      expect(await paintMemberPage({ page: 'paste', ref: '7' }, reader(answers).read)).toBeNull();
  });
});
