import type { ReplyView } from '@termpaste/contracts';
import { asDeleted, replyTree, withoutDeadBranches } from './reply-tree';

let clock = Date.parse('2026-03-01T00:00:00.000Z');

function reply(id: number, parentId: number | null, name = `user${id}`): ReplyView {
  clock += 60_000;
  return {
    id,
    threadId: 1,
    parentId,
    content: `reply ${id}`,
    createdAt: new Date(clock).toISOString(),
    editedAt: null,
    author: {
      id: 100 + id,
      username: name,
      avatarUrl: null,
      profileImageUrl: null,
      firstName: null,
      lastName: null,
      reputation: 0,
      activePremiumRank: null,
    },
    voteScore: 0,
    deleted: false,
    hidden: false,
    myVote: null,
  };
}

const shape = (rows: ReturnType<typeof replyTree>) => rows.map((row) => [row.reply.id, row.depth]);

describe('replyTree', () => {
  it('is empty for no replies', () => {
    expect(replyTree([])).toEqual([]);
  });

  it('orders depth first, oldest first on each level, with depths', () => {
    // Oldest first as the API sends them: 1, 2, 3 (to 1), 4 (to 3), 5 (to 1), 6 (to 2).
    const replies = [reply(1, null), reply(2, null), reply(3, 1), reply(4, 3), reply(5, 1), reply(6, 2)];
    expect(shape(replyTree(replies))).toEqual([
      [1, 0],
      [3, 1],
      [4, 2],
      [5, 1],
      [2, 0],
      [6, 1],
    ]);
  });

  it('names the parent of each answer, and null at the top level', () => {
    const [a, b, c] = [reply(1, null), reply(2, 1), reply(3, 2)];
    const rows = replyTree([a!, b!, c!]);
    expect(rows.map((row) => row.parent?.id ?? null)).toEqual([null, 1, 2]);
    expect(rows[2]!.parent).toBe(b);
    expect(rows[0]!.reply).toBe(a);
  });

  it('keeps every reply exactly once', () => {
    const replies = [reply(1, null), reply(2, 1), reply(3, 1), reply(4, 2), reply(5, null), reply(6, 5)];
    const ids = replyTree(replies).map((row) => row.reply.id);
    expect([...ids].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('shows a reply whose parent is missing at the top level, in its place', () => {
    const replies = [reply(1, null), reply(2, 999), reply(3, 2), reply(4, null)];
    const rows = replyTree(replies);
    expect(shape(rows)).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
      [4, 0],
    ]);
    expect(rows[1]!.parent).toBeNull();
  });

  it('handles a chain 5,000 replies deep without overflowing the stack', () => {
    const replies = [reply(1, null)];
    for (let id = 2; id <= 5000; id++) replies.push(reply(id, id - 1));
    const rows = replyTree(replies);
    expect(rows).toHaveLength(5000);
    expect(rows[4999]!.depth).toBe(4999);
    expect(rows[4999]!.reply.id).toBe(5000);
    expect(rows.every((row, index) => row.depth === index && row.reply.id === index + 1)).toBe(true);
  });

  it('handles a chain sent newest first (children before parents)', () => {
    const replies: ReplyView[] = [];
    for (let id = 1; id <= 3000; id++) replies.push(reply(id, id === 1 ? null : id - 1));
    const rows = replyTree([...replies].reverse());
    expect(rows).toHaveLength(3000);
    expect(rows[2999]!.depth).toBe(2999);
  });
});

describe('withoutDeadBranches', () => {
  it('keeps a deleted reply while a live one stands under it, at any depth, and drops it otherwise', () => {
    const top = asDeleted(reply(1, null));
    const middle = asDeleted(reply(2, 1));
    const live = reply(3, 2);
    const lone = asDeleted(reply(4, null));
    const deadEnd = asDeleted(reply(5, 4));
    expect(withoutDeadBranches([top, middle, live, lone, deadEnd]).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(withoutDeadBranches([top, middle, asDeleted(live)])).toEqual([]);
  });

  it('shows a placeholder with no text and no author', () => {
    expect(asDeleted(reply(7, null))).toMatchObject({ deleted: true, content: '', author: null });
    const rows = replyTree(withoutDeadBranches([asDeleted(reply(8, null)), reply(9, 8)]));
    expect(rows.map((row) => [row.reply.id, row.depth, row.reply.deleted])).toEqual([
      [8, 0, true],
      [9, 1, false],
    ]);
  });
});
