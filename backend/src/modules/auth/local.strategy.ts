import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
import type { User } from '../users/entities/user.entity.js';
import { AuthService } from './auth.service.js';

/**
 * passport's local strategy for sign-in (POST /api/login, through LocalAuthGuard): the body's
 * `usernameOrEmail` and `password`, checked by AuthService.checkCredentials (401 for wrong credentials,
 * 403 for a banned account, thrown as they are).
 *
 * passport keeps its strategies in one registry per process, so the last app built in a process signs in
 * for all of them: a process runs one app.
 */
@Injectable()
export class LocalStrategy extends PassportStrategy(Strategy, 'local') {
  constructor(private readonly auth: AuthService) {
    super({ usernameField: 'usernameOrEmail', passwordField: 'password' });
  }

  validate(usernameOrEmail: string, password: string): Promise<User> {
    return this.auth.checkCredentials(usernameOrEmail, password);
  }
}
