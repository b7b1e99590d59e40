import { AuditService, CLI_ACTOR } from '../../modules/audit/audit.service.js';
import { type AdminChange, UsersService } from '../../modules/users/users.service.js';
import { type CliCommand, type CliContext, EXIT } from '../command.js';

/** make-admin / revoke-admin: the change and its audit entry (actor `cli`) in one transaction. */
async function setAdmin(username: string, grant: boolean, ctx: CliContext): Promise<number> {
  const db = await ctx.dataSource();
  const users = new UsersService(db);
  const audit = new AuditService(db);
  const { change, user } = await db.transaction(async (manager) => {
    const result = await users.setAdmin(username, grant, manager);
    if (result.user && (result.change === 'granted' || result.change === 'revoked')) {
      await audit.record(manager, CLI_ACTOR, {
        action: grant ? 'user.admin_grant' : 'user.admin_revoke',
        targetType: 'user',
        targetId: result.user.id,
        targetLabel: result.user.username,
        before: { isAdmin: !grant },
        after: { isAdmin: grant },
      });
    }
    return result;
  });
  const name = user?.username ?? username;
  const results: Record<AdminChange, [code: number, line: string]> = {
    granted: [EXIT.ok, `${name} is now an admin`],
    revoked: [EXIT.ok, `${name} is no longer an admin`],
    unchanged: [
      EXIT.ok,
      grant ? `${name} is already an admin: nothing to do` : `${name} is not an admin: nothing to do`,
    ],
    'not-found': [EXIT.failed, `No user named "${username}"`],
    owner: [EXIT.failed, `${name} is the owner: the owner is always an admin`],
  };
  const [code, line] = results[change];
  (code === EXIT.ok ? ctx.out : ctx.err)(line);
  return code;
}

export const makeAdmin: CliCommand = {
  name: 'make-admin',
  usage: '<username>',
  summary: 'let the user moderate (admin panel, pin, lock, feature, delete)',
  help: ['Any letter case finds the user. Example: termpaste make-admin alice'],
  positional: ['<username>'],
  run: ({ positional: [username] }, ctx) => setAdmin(username!, true, ctx),
};

export const revokeAdmin: CliCommand = {
  name: 'revoke-admin',
  usage: '<username>',
  summary: 'take that away again (never from the owner)',
  help: ['Example: termpaste revoke-admin alice'],
  positional: ['<username>'],
  run: ({ positional: [username] }, ctx) => setAdmin(username!, false, ctx),
};
