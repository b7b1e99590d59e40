import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { isPremiumRankName, SETTINGS_MESSAGES } from '@termpaste/contracts';
import { announcePagesChanged, EventsPort } from '../../infra/events/events.port.js';
import type { User } from '../users/entities/user.entity.js';
import { UsersService } from '../users/users.service.js';

/** Premium grades: the one a member owns and picks shows as their rank; admins grant and take them back. */
@Injectable()
export class PremiumRanksService {
  private readonly logger = new Logger('Ranks');

  constructor(
    private readonly users: UsersService,
    private readonly events: EventsPort,
  ) {}

  /**
   * Makes one of the member's owned premium grades the active rank, or (null) goes back to the reputation
   * rank. 400 `Unknown rank` for a name that is no grade, `You do not own this rank` for one not owned.
   */
  async select(userId: number, rankName: string | null): Promise<User> {
    if (rankName !== null && !isPremiumRankName(rankName)) {
      throw new BadRequestException(SETTINGS_MESSAGES.unknownRank);
    }
    if (!(await this.users.setActiveRank(userId, rankName))) {
      throw new BadRequestException(SETTINGS_MESSAGES.rankNotOwned);
    }
    // The member's rank shows on every page they wrote on: all of them change.
    await announcePagesChanged(this.events, { all: true }, this.logger);
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundException('User not found');
    return user;
  }
}
