import {
  BadRequestException,
  ForbiddenException,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import type { ChangePasswordBody, RegisterBody } from '@termpaste/contracts';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { EventsPort } from '../../infra/events/events.port.js';
import { OutboxService } from '../../infra/outbox/outbox.service.js';
import type { User } from '../users/entities/user.entity.js';
import { SessionsService } from './sessions.service.js';
import { UsersService } from '../users/users.service.js';
import { AUTH_MESSAGES, signInRefusal } from './auth.messages.js';
import { EmailVerificationService } from './email-verification.service.js';
import { signOutLive } from './live-sign-out.js';
import { revokeWithNewPassword } from './password-changed.js';
import { hashPassword, verifyNothing, verifyPassword } from './passwords.js';

/** Credentials: creating accounts, checking passwords, changing them. Sessions are the controller's. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly events: EventsPort,
    private readonly verification: EmailVerificationService,
    private readonly outbox: OutboxService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'productName'>,
  ) {}

  /**
   * 409 naming what is taken. The account starts unverified: its first verification link is made in the
   * same transaction and mailed once it commits. Nobody becomes owner by registering (see OwnerService).
   */
  async register({ username, email, password }: RegisterBody): Promise<User> {
    await this.users.assertAvailable(username, email);
    const { user, extra: tokenId } = await this.users.create(
      { username, email, passwordHash: await hashPassword(password) },
      (manager, created) => this.verification.createToken(manager, created),
    );
    await this.verification.mailLink(user.id, tokenId!);
    return user;
  }

  /**
   * The account these credentials open. An unknown account costs the same hashing time as a wrong
   * password and gets the same 401; a banned account is told so only once the password is right. An
   * account without a password (a provider made it) opens with none: the same 401, in the same time.
   */
  async checkCredentials(usernameOrEmail: string, password: string): Promise<User> {
    const user = await this.users.findByUsernameOrEmail(usernameOrEmail);
    const matches = user ? await verifyPassword(user.passwordHash, password) : await verifyNothing(password);
    if (!user || !matches) throw new UnauthorizedException(AUTH_MESSAGES.invalidCredentials);
    if (user.isBanned) throw new ForbiddenException(signInRefusal(user));
    return user;
  }

  /**
   * Needs the current password; signs out everywhere but session `keepSid`: other sessions, access tokens
   * and identities linked while unverified are revoked (revokeWithNewPassword, which mails the
   * confirmation), then their live sockets closed. No password (a provider account): 400 saying how.
   */
  async changePassword(user: User, body: ChangePasswordBody, keepSid: string): Promise<void> {
    if (user.passwordHash === null) throw new BadRequestException(AUTH_MESSAGES.noPasswordYet);
    if (!(await verifyPassword(user.passwordHash, body.currentPassword))) {
      throw new BadRequestException(AUTH_MESSAGES.currentPasswordIncorrect);
    }
    const passwordHash = await hashPassword(body.newPassword);
    await this.dataSource.transaction(async (manager) => {
      await this.users.setPasswordHash(user.id, passwordHash, manager);
      await this.sessions.revokeUserSessions(user.id, { exceptSid: keepSid, manager });
      await revokeWithNewPassword(manager, this.outbox, this.config, user, 'change');
    });
    this.outbox.committed();
    await signOutLive(this.events, this.logger, user.id, keepSid);
  }
}
