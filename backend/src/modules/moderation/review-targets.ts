import type { FlagTarget, ReviewTarget } from '@termpaste/contracts';
import type { DataSource, EntityManager } from 'typeorm';
import { excerpt } from '../audit/audit.service.js';
import type { ChatService } from '../chat/chat.service.js';
import { messagesForReview } from '../messages/review-messages.js';
import { postsForReview } from '../pastes/review-posts.js';
import { userFacts } from '../users/user-facts.js';
import type { Row } from '../../infra/database/columns.js';
import type { ReviewItem } from './entities/review-item.entity.js';

type Db = DataSource | EntityManager;

/** A review item as the queue and the decisions name what it is about. */
export type ItemRef = Row<ReviewItem, 'id' | 'kind' | 'targetType' | 'targetId' | 'payload' | 'createdAt'>;

/** What an item is about: rendered for staff, named for notices and the audit log. */
export interface ResolvedTarget {
  target: ReviewTarget;
  /** The audit entry's label: a title, an excerpt or a username. */
  label: string;
  /** How a notice names it: `the paste "…"`, `the reply on "…"`, `the member @…`. */
  noun: string;
  /** The paste it is or is on, while alive (a notice links to it). */
  threadId: number | null;
}

const quoted = (text: string) => `"${excerpt(text, 60)}"`;

/** A target on no paste: a chat or private message, a member. */
function plainTarget(title: string | null, content: string, createdAt: Date): ReviewTarget {
  return {
    title,
    content,
    language: null,
    threadRef: null,
    parentId: null,
    createdAt: createdAt.toISOString(),
    gone: false,
  };
}

const goneTarget = (createdAt: Date): ReviewTarget => ({ ...plainTarget(null, '', createdAt), gone: true });

const NOUNS: Record<FlagTarget, string> = {
  paste: 'a paste',
  reply: 'a reply',
  chat: 'a chat message',
  message: 'a private message',
  member: 'a member',
};

/**
 * Renders `items`' targets in a bounded number of queries (one per kind of target, whatever the
 * number of items): a paste, a reply, a chat or private message, a member, or a held post's payload.
 */
export async function resolveTargets(
  db: Db,
  chat: ChatService,
  items: readonly ItemRef[],
): Promise<Map<number, ResolvedTarget>> {
  const ids = (type: FlagTarget) =>
    items.filter((item) => item.kind === 'flagged' && item.targetType === type).map((item) => item.targetId!);
  const [posts, lines, messages, users] = await Promise.all([
    postsForReview(db, ids('paste'), ids('reply')),
    chat.lines(db, ids('chat')),
    messagesForReview(db, ids('message')),
    userFacts(db, ids('member')),
  ]);
  const linesById = new Map(lines.map((line) => [line.id, line]));
  const messagesById = new Map(messages.map((message) => [message.id, message]));
  const resolved = new Map<number, ResolvedTarget>();
  for (const item of items) {
    resolved.set(item.id, resolveOne(item));
  }
  return resolved;

  function resolveOne(item: ItemRef): ResolvedTarget {
    const gone = (): ResolvedTarget => ({
      target: goneTarget(item.createdAt),
      label: `${item.targetType} ${item.targetId ?? ''}`.trim(),
      noun: NOUNS[item.targetType],
      threadId: null,
    });
    if (item.kind === 'held') {
      const held = item.payload;
      if (!held) return gone();
      return {
        target: {
          title: held.title,
          content: held.content,
          language: held.language,
          threadRef: held.threadRef,
          parentId: held.parentId,
          createdAt: item.createdAt.toISOString(),
          gone: false,
        },
        label: held.title ?? excerpt(held.content),
        noun: held.title ? `the paste ${quoted(held.title)}` : `the reply ${quoted(held.content)}`,
        threadId: null,
      };
    }
    const id = item.targetId!;
    switch (item.targetType) {
      case 'paste':
      case 'reply': {
        const post = (item.targetType === 'paste' ? posts.pastes : posts.replies).get(id);
        if (!post) return gone();
        return {
          target: {
            title: item.targetType === 'paste' ? post.title : null,
            content: post.content,
            language: post.language,
            threadRef: post.threadRef,
            parentId: post.parentId,
            createdAt: post.createdAt.toISOString(),
            gone: post.gone,
          },
          label: item.targetType === 'paste' ? post.title : excerpt(post.content),
          noun:
            item.targetType === 'paste'
              ? `the paste ${quoted(post.title)}`
              : `the reply on ${quoted(post.title)}`,
          threadId: post.gone ? null : post.threadId,
        };
      }
      case 'chat': {
        const line = linesById.get(id);
        if (!line) return gone();
        return {
          target: plainTarget(null, line.content, line.createdAt),
          label: excerpt(line.content),
          noun: `the chat message ${quoted(line.content)}`,
          threadId: null,
        };
      }
      case 'message': {
        const message = messagesById.get(id);
        if (!message) return gone();
        return {
          target: plainTarget(message.subject, message.content, message.createdAt),
          label: message.subject,
          noun: `the private message ${quoted(message.subject)}`,
          threadId: null,
        };
      }
      case 'member': {
        const user = users.get(id);
        if (!user) return gone();
        return {
          target: plainTarget(user.username, user.bio ?? '', user.joinedAt),
          label: user.username,
          noun: `the member @${user.username}`,
          threadId: null,
        };
      }
    }
  }
}
