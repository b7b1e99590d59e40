import type { PasteDetail, ReplyView } from '@termpaste/contracts';
import { formatComments, lineRange, lines } from './comments.js';

const author = (username: string) => ({
  id: 1,
  username,
  avatarUrl: null,
  profileImageUrl: null,
  firstName: null,
  lastName: null,
  reputation: 0,
  activePremiumRank: null,
});

function reply(fields: Partial<ReplyView>): ReplyView {
  return {
    id: 1,
    threadId: 7,
    parentId: null,
    content: 'A note',
    createdAt: '2026-11-28T22:10:00.000Z',
    editedAt: null,
    author: author('bob'),
    voteScore: 0,
    myVote: null,
    deleted: false,
    hidden: false,
    ...fields,
  };
}

const paste = (replies: ReplyView[]): Pick<PasteDetail, 'content' | 'replies'> => ({
  content: 'one\ntwo\nthree\nfour\nfive\n',
  replies,
});

describe('get --comments', () => {
  it('splits lines as the site numbers them', () => {
    expect(lines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(lines('a')).toEqual(['a']);
    expect(lineRange(3, 3)).toBe('line 3');
    expect(lineRange(3, 5)).toBe('lines 3-5');
  });

  it('shows a line comment with its lines and its suggestion as a diff; a plain reply as text', () => {
    const out = formatComments(
      paste([
        reply({
          id: 4,
          anchor: { fromLine: 3, toLine: 4, version: 1 },
          outdated: false,
          suggestion: 'THREE\nFOUR',
          suggestionApplied: null,
        }),
        reply({ id: 5, parentId: 4, content: 'Agreed', author: author('alice') }),
      ]),
    );
    expect(out).toBe(
      [
        '2 comments',
        '',
        '#4 bob on lines 3-4 2026-11-28 22:10',
        '  3 | three',
        '  4 | four',
        '  A note',
        '  suggested change:',
        '  - three',
        '  - four',
        '  + THREE',
        '  + FOUR',
        '',
        '#5 alice 2026-11-28 22:10 (answering #4)',
        '  Agreed',
        '',
      ].join('\n'),
    );
  });

  it("reads an older version's lines for a comment on one; says so when it is no longer kept", () => {
    const outdated = reply({
      anchor: { fromLine: 1, toLine: 1, version: 2 },
      outdated: true,
      suggestion: '',
      suggestionApplied: 3,
    });
    expect(formatComments(paste([outdated]), new Map([[2, ['uno']]]))).toContain(
      '#1 bob on line 1 2026-11-28 22:10 (on an older version: v2)\n  1 | uno\n  A note\n  suggested change (applied in version 3):\n  - uno\n',
    );
    expect(formatComments(paste([outdated]), new Map([[2, null]]))).toContain(
      '  (version 2 is no longer kept)',
    );
    expect(formatComments(paste([]))).toBe('No comments.\n');
  });
});
