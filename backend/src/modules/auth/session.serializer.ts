import { Injectable } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import type { User } from '../users/entities/user.entity.js';
import { UsersService } from '../users/users.service.js';

type Done<T> = (error: unknown, value?: T) => void;

/**
 * What passport keeps in the session: the member's id, written at sign-in. Requests skip
 * passport.session(): the session guards load the member afresh (sessionUserId), so bans count at once
 * and visitors cost nothing.
 */
@Injectable()
export class SessionSerializer extends PassportSerializer {
  constructor(private readonly users: UsersService) {
    super();
  }

  serializeUser(user: User, done: Done<number>): void {
    done(null, user.id);
  }

  /** The member a session names, or false (passport's "no user") when the account is gone. */
  deserializeUser(id: number, done: Done<User | false>): void {
    this.users.findById(id).then((user) => done(null, user ?? false), done);
  }
}
