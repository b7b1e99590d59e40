import { PAGES } from '@termpaste/contracts';
import { OwnerService } from '../../modules/auth/owner.service.js';
import { UsersService } from '../../modules/users/users.service.js';
import { type CliCommand, EXIT } from '../command.js';

/** A new owner setup code (older ones stay valid until one is used), or why none applies. */
export const setupCode: CliCommand = {
  name: 'setup-code',
  usage: '',
  summary: 'print a new one-time code that makes a verified member the owner',
  help: ['Only without OWNER_EMAIL, while there is no owner. Example: termpaste setup-code'],
  async run(_args, ctx) {
    const db = await ctx.dataSource();
    const config = ctx.config();
    const result = await new OwnerService(db, new UsersService(db), config).issueSetupCode();
    if (result.issued) {
      ctx.out(
        `Setup code: ${result.code}\n` +
          `Sign in with a verified account and enter it at ${config.publicUrl}${PAGES.ownerSetup} to become ` +
          'the owner. It works once.',
      );
      return EXIT.ok;
    }
    ctx.err(
      result.reason === 'owner'
        ? `${result.owner} is the owner already: no setup code applies`
        : `OWNER_EMAIL is set (${result.ownerEmail}): that account becomes the owner once it verifies its ` +
            'address; no setup code applies',
    );
    return EXIT.failed;
  },
};
