import { Controller, Delete, Get, HttpCode, Param, Post, Put, UseGuards } from '@nestjs/common';
import { API, MODERATION_MESSAGES, type PeopleList, type PersonEntry } from '@termpaste/contracts';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { parseId } from '../../common/parse-id.js';
import { SessionGuard } from '../auth/guards/session.guard.js';
import { PrivateRead } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { type PeopleListKind, PeopleService } from '../screening/people.service.js';
import { NotificationsService } from '../notifications/notifications.service.js';

const targetId = (id: string) => parseId(id, MODERATION_MESSAGES.userNotFound);

/**
 * The member's mutes and blocks: signed in, not banned (401); unverified may too (protecting oneself is
 * not posting). PUT and POST add (200 with the entry, idempotent), DELETE removes (204 either way).
 * Tokens read the lists with `private:read` and change nothing.
 */
@Controller()
@UseGuards(SessionGuard)
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
    private readonly notifications: NotificationsService,
  ) {}

  @Get(API.userMutes)
  @PrivateRead()
  mutes(@CurrentUser() user: User): Promise<PeopleList> {
    return this.people.list('mutes', user.id);
  }

  @Put(API.userMute(':id'))
  mute(@CurrentUser() user: User, @Param('id') id: string): Promise<PersonEntry> {
    return this.add('mutes', user, id);
  }

  /** The same as PUT. */
  @Post(API.userMute(':id'))
  @HttpCode(200)
  muteByPost(@CurrentUser() user: User, @Param('id') id: string): Promise<PersonEntry> {
    return this.add('mutes', user, id);
  }

  @Delete(API.userMute(':id'))
  @HttpCode(204)
  unmute(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.people.remove('mutes', user.id, targetId(id));
  }

  @Get(API.userBlocks)
  @PrivateRead()
  blocks(@CurrentUser() user: User): Promise<PeopleList> {
    return this.people.list('blocks', user.id);
  }

  @Put(API.userBlock(':id'))
  block(@CurrentUser() user: User, @Param('id') id: string): Promise<PersonEntry> {
    return this.add('blocks', user, id);
  }

  /** The same as PUT. */
  @Post(API.userBlock(':id'))
  @HttpCode(200)
  blockByPost(@CurrentUser() user: User, @Param('id') id: string): Promise<PersonEntry> {
    return this.add('blocks', user, id);
  }

  @Delete(API.userBlock(':id'))
  @HttpCode(204)
  unblock(@CurrentUser() user: User, @Param('id') id: string): Promise<void> {
    return this.people.remove('blocks', user.id, targetId(id));
  }

  private async add(kind: PeopleListKind, user: User, id: string): Promise<PersonEntry> {
    const entry = await this.people.add(kind, user.id, targetId(id));
    // Their notifications leave the blocker's list: so they leave the unread count.
    if (kind === 'blocks') await this.notifications.markActorRead(user.id, entry.member.id);
    return entry;
  }
}
