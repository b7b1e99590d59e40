import type { PasteDetail } from '@termpaste/contracts';
import type { Request, Response } from 'express';
import { type CachedDetail, sendPage, splitAroundViews, toPage } from '../../http/page-cache.js';
import type { ForkOriginal } from './pastes.service.js';

/**
 * A paste's detail as every visitor sees it, serialized around its view count (which moves with every
 * read): `head` + the count + `tail` is the answer (splitAroundViews).
 */
export interface DetailPage extends CachedDetail {
  detail: PasteDetail;
  storedViews: number;
  /** A fork's original while alive, which its own author may see named where others may not. */
  original?: ForkOriginal | null;
  /**
   * The pastes whose change changes this page though it names none of them by a write of its own: its
   * original (its title, or that it is gone) and its forks (their count), whatever their visibility.
   */
  related?: readonly number[];
}

export function toDetailPage(detail: PasteDetail, storedViews: number): DetailPage {
  return { detail, storedViews, ...splitAroundViews(detail) };
}

/**
 * Sends a paste's detail with `views` as its view count. `votes`: the member's own votes, when they have
 * any on it (the answer is then theirs alone); without, a member gets the visitors' page.
 */
export function sendDetail(
  req: Request,
  res: Response,
  page: DetailPage,
  views: number,
  {
    personal = false,
    votes,
  }: { personal?: boolean; votes?: { paste: 1 | -1 | null; replies: Map<number, 1 | -1> } } = {},
): void {
  if (votes && (votes.paste !== null || votes.replies.size > 0)) {
    const mine: PasteDetail = {
      ...page.detail,
      viewCount: views,
      myVote: votes.paste,
      replies: page.detail.replies.map((reply) => {
        const myVote = votes.replies.get(reply.id);
        return myVote === undefined ? reply : { ...reply, myVote };
      }),
    };
    sendPage(req, res, toPage(mine), { personal: true });
    return;
  }
  const json = Buffer.concat([page.head, Buffer.from(String(views)), page.tail]);
  sendPage(req, res, { json, etag: page.etag }, { personal });
}
