import type { ReplyView } from '@termpaste/contracts';

export interface ReplyRow {
  reply: ReplyView;
  depth: number;
  /** The reply answered, when there is one. */
  parent: ReplyView | null;
}

/**
 * The replies of a paste in reading order: each reply followed by its answers, depth first, each level
 * oldest first. Built without recursion, so a chain thousands of replies deep cannot overflow the stack.
 * A reply whose parent is missing is shown at the top level.
 */
export function replyTree(replies: readonly ReplyView[]): ReplyRow[] {
  const byId = new Map(replies.map((reply) => [reply.id, reply]));
  const children = new Map<number | null, ReplyView[]>();
  for (const reply of replies) {
    const parentKey = reply.parentId !== null && byId.has(reply.parentId) ? reply.parentId : null;
    const list = children.get(parentKey) ?? [];
    list.push(reply);
    children.set(parentKey, list);
  }
  const rows: ReplyRow[] = [];
  const stack: Array<{ reply: ReplyView; depth: number }> = (children.get(null) ?? [])
    .map((reply) => ({ reply, depth: 0 }))
    .reverse();
  while (stack.length > 0) {
    const { reply, depth } = stack.pop()!;
    rows.push({ reply, depth, parent: reply.parentId === null ? null : (byId.get(reply.parentId) ?? null) });
    const answers = children.get(reply.id) ?? [];
    for (let i = answers.length - 1; i >= 0; i--) stack.push({ reply: answers[i]!, depth: depth + 1 });
  }
  return rows;
}

/**
 * The replies a paste shows (as the API sends them): every live one, and a deleted one only while a live
 * reply stands under it, as a placeholder that keeps the tree's shape.
 */
export function withoutDeadBranches(replies: readonly ReplyView[]): ReplyView[] {
  const parentOf = new Map(replies.map((reply) => [reply.id, reply.parentId]));
  const needed = new Set<number>();
  for (const reply of replies) {
    if (reply.deleted) continue;
    let up = reply.parentId;
    while (up !== null && !needed.has(up)) {
      needed.add(up);
      up = parentOf.get(up) ?? null;
    }
  }
  return replies.filter((reply) => !reply.deleted || needed.has(reply.id));
}

/** A reply as its author's delete leaves it: no text, no author. */
export function asDeleted(reply: ReplyView): ReplyView {
  return { ...reply, content: '', author: null, deleted: true, myVote: null };
}
