import { ConflictException } from '@nestjs/common';
import { emailSchema, passwordSchema, usernameSchema } from '@termpaste/contracts';
import { z } from 'zod';
import type { EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { AuditService, CLI_ACTOR } from '../../modules/audit/audit.service.js';
import { OwnerService } from '../../modules/auth/owner.service.js';
import { hashPassword } from '../../modules/auth/passwords.js';
import { createResetLink, type ResetLink } from '../../modules/auth/reset-links.js';
import { UsersService } from '../../modules/users/users.service.js';
import { type CliCommand, EXIT } from '../command.js';

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The line that hands a reset link over: where, until when, once. */
function linkLine(what: string, link: ResetLink): string {
  return `${what}: ${link.url}\nIt works once, until ${utc(link.expiresAt)}.`;
}

/** The password piped in (`--password-stdin`), without the line break `echo` or a file adds. */
function passwordFromStdin(text: string): string {
  return text.replace(/\r?\n$/, '');
}

/** Registration's rules; the password only when one is given. */
const newMemberSchema = z.object({
  username: usernameSchema,
  email: emailSchema,
  password: passwordSchema.optional(),
});

export const createUser: CliCommand = {
  name: 'create-user',
  usage: '<username> <email> [--admin] [--password-stdin]',
  summary: 'create a member with a verified address; prints a link to set the password',
  help: [
    'The address counts as verified (no mail is sent). Without --password-stdin it prints a one-time',
    'link (valid 1 hour) where the member sets a password; with it, the password is read from standard',
    'input. --admin makes them an admin too. With OWNER_EMAIL, that address becomes the owner.',
    'Examples: termpaste create-user alice alice@example.com --admin',
    '          printf \'%s\' "$PASSWORD" | termpaste create-user bob bob@example.com --password-stdin',
  ],
  positional: ['<username>', '<email>'],
  options: { admin: 'boolean', 'password-stdin': 'boolean' },
  async run({ positional: [username, email], options }, ctx) {
    const password = options['password-stdin'] ? passwordFromStdin(await ctx.stdin()) : undefined;
    const parsed = newMemberSchema.safeParse({ username, email, password });
    if (!parsed.success) {
      ctx.err(parsed.error.issues.map((issue) => issue.message).join('\n'));
      return EXIT.failed;
    }
    const db = await ctx.dataSource();
    const config: AppConfig = ctx.config();
    const users = new UsersService(db);
    const audit = new AuditService(db);
    const owners = new OwnerService(db, users, config);
    const admin = options.admin === true;
    let created;
    try {
      created = await users.create(
        {
          username: parsed.data.username,
          email: parsed.data.email,
          passwordHash: password === undefined ? null : await hashPassword(password),
          emailVerified: true,
        },
        async (manager: EntityManager, user) => {
          const owner = await owners.grantIfOwnerEmail(manager, user.id, user.email);
          if (admin && !owner) await users.setAdmin(user.username, true, manager);
          await audit.record(manager, CLI_ACTOR, {
            action: 'user.create',
            targetType: 'user',
            targetId: user.id,
            targetLabel: user.username,
            after: {
              emailVerified: true,
              isAdmin: admin || owner,
              isOwner: owner,
              password: password !== undefined,
            },
          });
          const link =
            password === undefined ? await createResetLink(manager, config.publicUrl, user.id) : null;
          return { owner, link };
        },
      );
    } catch (error) {
      if (error instanceof ConflictException) {
        ctx.err(error.message);
        return EXIT.failed;
      }
      throw error;
    }
    const { user, extra } = created;
    const role = extra!.owner ? ' (the owner: OWNER_EMAIL)' : admin ? ' (admin)' : '';
    ctx.out(`Created ${user.username} <${user.email}>${role}, address verified`);
    if (extra!.link) ctx.out(linkLine('Set the password at', extra!.link));
    return EXIT.ok;
  },
};

export const resetPassword: CliCommand = {
  name: 'reset-password',
  usage: '<username>',
  summary: 'print a one-time link to set a new password (nothing is mailed)',
  help: [
    'The link (PUBLIC_URL/reset-password?token=…) works once, for 1 hour; it voids older reset links.',
    'Setting the password signs the member out everywhere. Example: termpaste reset-password alice',
  ],
  positional: ['<username>'],
  async run({ positional: [username] }, ctx) {
    const db = await ctx.dataSource();
    const config = ctx.config();
    const users = new UsersService(db);
    const audit = new AuditService(db);
    const user = await users.findByUsername(username!);
    if (!user) {
      ctx.err(`No user named "${username}"`);
      return EXIT.failed;
    }
    if (user.isBanned) {
      ctx.err(`${user.username} is banned: unban them first (termpaste unban ${user.username})`);
      return EXIT.failed;
    }
    const link = await db.transaction(async (manager) => {
      const created = await createResetLink(manager, config.publicUrl, user.id);
      await audit.record(manager, CLI_ACTOR, {
        action: 'user.reset_link',
        targetType: 'user',
        targetId: user.id,
        targetLabel: user.username,
        after: { expiresAt: created.expiresAt.toISOString() },
      });
      return created;
    });
    ctx.out(linkLine(`Reset link for ${user.username}`, link));
    return EXIT.ok;
  },
};
