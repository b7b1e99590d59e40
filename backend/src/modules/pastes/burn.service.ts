import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import { PASTE_LIVE_EVENT, POST_MESSAGES, type PasteRef, type PasteDetail } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import { PastesService } from './pastes.service.js';
import { PasteRemoval } from './paste-removal.js';
import { resolvePaste } from './visibility.js';

/**
 * Burn after reading: a paste that burns shows its content once to a reader other than its author, and
 * is removed for good in the same transaction. Its row is locked first (FOR UPDATE), so of two readers
 * racing one gets it and the other, once the first has committed, finds nothing: 404.
 */
@Injectable()
export class BurnService {
  private readonly logger = new Logger('Burn');

  constructor(
    private readonly dataSource: DataSource,
    private readonly pastes: PastesService,
    private readonly removal: PasteRemoval,
    private readonly events: EventsPort,
  ) {}

  /**
   * The paste `ref` names, with its content, for `viewerId` (null: a visitor), and gone for good unless
   * the reader is its author (who reads it as often as they like, as on its page). 404 for a paste that
   * does not burn after reading (its page shows it), or that the reader may not read.
   */
  async readOnce(ref: PasteRef, viewerId: number | null): Promise<PasteDetail> {
    const { detail, removed } = await this.dataSource.transaction(async (manager) => {
      const paste = await resolvePaste(manager, ref, viewerId, { lock: true });
      if (!paste.burnAfterReading) throw new NotFoundException(POST_MESSAGES.pasteNotFound);
      const read = await this.pastes.detail(ref, manager);
      const own = viewerId !== null && viewerId === paste.authorId;
      const gone = own ? null : await this.removal.remove(manager, paste.id);
      return { detail: { ...read.detail, viewCount: read.storedViews }, removed: gone };
    });
    if (removed) {
      await announcePagesChanged(
        this.events,
        { threads: [removed.id], ...(removed.authorId !== null ? { profiles: [removed.authorId] } : {}) },
        this.logger,
        { type: PASTE_LIVE_EVENT.pasteDeleted, threadId: removed.id },
      );
    }
    return detail;
  }
}
