import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
import type { User } from '../users/entities/user.entity.js';
import { AuthService } from './auth.service.js';

/**
 * passport's local strategy for sign-in: AuthService.checkCredentials (401 wrong, 403 banned). passport
 * keeps one strategy registry per process, so the last app built signs in for all: a process runs one app.
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
