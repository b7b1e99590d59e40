import { Controller, Get, Redirect } from '@nestjs/common';
import { API, PAGES } from '@termpaste/contracts';

/** Browser navigation to start a session (SPEC §7): the top bar's access button lands on the login page. */
@Controller()
export class AuthController {
  @Get(API.login)
  @Redirect(PAGES.login, 302)
  startSession(): void {}
}
