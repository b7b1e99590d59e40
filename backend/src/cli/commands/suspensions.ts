import { HttpException } from '@nestjs/common';
import { banBodySchema } from '@termpaste/contracts';
import { CLI_STAFF } from '../../modules/admin/admin.service.js';
import { SuspensionsService } from '../../modules/moderation/suspensions.service.js';
import { UsersService } from '../../modules/users/users.service.js';
import { type CliCommand, type CliContext, EXIT, usageOf } from '../command.js';

/** The member by username, or undefined (said on stderr). */
async function memberId(ctx: CliContext, username: string): Promise<number | undefined> {
  const user = await new UsersService(await ctx.dataSource()).findByUsername(username);
  if (!user) ctx.err(`No user named "${username}"`);
  return user?.id;
}

/** Runs an admin action as the panel does; its refusals (the owner, a missing member) exit 1. */
async function asStaff(ctx: CliContext, action: () => Promise<void>): Promise<number> {
  try {
    await action();
    return EXIT.ok;
  } catch (error) {
    if (error instanceof HttpException && error.getStatus() < 500) {
      ctx.err(error.message);
      return EXIT.failed;
    }
    throw error;
  }
}

export const ban: CliCommand = {
  name: 'ban',
  usage: '<username> [--reason TEXT] [--days N]',
  summary: 'suspend the member (for ever, or N days), signed out everywhere; never the owner',
  help: [
    'As the admin panel bans: sessions and access tokens revoked, the member mailed the terms, the',
    'suspension history and audit log written; a timed ban ends by itself. Example:',
    '  termpaste ban mallory --reason "spam links" --days 7',
  ],
  positional: ['<username>'],
  options: { reason: 'string', days: 'string' },
  async run({ positional: [username], options }, ctx) {
    // The admin panel's rules for the terms (whole days within the maximum, a reason within its length).
    const terms = banBodySchema.safeParse({
      ...(options.days === undefined
        ? {}
        : { days: /^\d+$/.test(String(options.days)) ? Number(options.days) : NaN }),
      ...(options.reason === undefined ? {} : { reason: options.reason }),
    });
    if (!terms.success) {
      ctx.err(`${terms.error.issues.map((issue) => issue.message).join('\n')}\n\n${usageOf(ban)}`);
      return EXIT.usage;
    }
    const { days, reason } = terms.data;
    const id = await memberId(ctx, username!);
    if (id === undefined) return EXIT.failed;
    const suspensions = (await ctx.app()).get(SuspensionsService);
    return asStaff(ctx, async () => {
      const user = await suspensions.ban(CLI_STAFF, id, { days, reason });
      const term = days === undefined ? 'for ever' : `for ${days} day${days === 1 ? '' : 's'}`;
      ctx.out(`${user.username} is banned ${term}${reason?.trim() ? ` (reason: ${reason.trim()})` : ''}`);
    });
  },
};

export const unban: CliCommand = {
  name: 'unban',
  usage: '<username>',
  summary: 'lift the ban (the member is mailed)',
  help: ['Example: termpaste unban mallory'],
  positional: ['<username>'],
  async run({ positional: [username] }, ctx) {
    const id = await memberId(ctx, username!);
    if (id === undefined) return EXIT.failed;
    const before = await new UsersService(await ctx.dataSource()).findById(id);
    const suspensions = (await ctx.app()).get(SuspensionsService);
    return asStaff(ctx, async () => {
      const user = await suspensions.unban(CLI_STAFF, id);
      ctx.out(
        before?.isBanned
          ? `${user.username} is no longer banned`
          : `${user.username} is not banned: nothing to do`,
      );
    });
  },
};
