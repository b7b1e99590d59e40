import { Injectable } from '@nestjs/common';

/** A member's votes on a paste (`paste`) and on those of its replies they voted on. */
export interface ViewerVotes {
  paste: 1 | -1 | null;
  replies: Map<number, 1 | -1>;
}

/** Reads a member's votes on a paste's page (the votes module, above threads, provides it). */
export interface ViewerVotesReader {
  votesOf(userId: number, threadId: number, replyIds: number[]): Promise<ViewerVotes>;
}

/** Where the paste page reads the viewer's votes: the votes module registers its reader when it starts. */
@Injectable()
export class ViewerVotesPort implements ViewerVotesReader {
  private reader: ViewerVotesReader | undefined;

  register(reader: ViewerVotesReader): void {
    this.reader = reader;
  }

  votesOf(userId: number, threadId: number, replyIds: number[]): Promise<ViewerVotes> {
    if (!this.reader)
      throw new Error("No reader of members' votes registered (the votes module registers it)");
    return this.reader.votesOf(userId, threadId, replyIds);
  }
}
