import { Controller, Get, Header, Res } from '@nestjs/common';
import { API, type Health } from '@termpaste/contracts';
import type { Response } from 'express';
import { HealthService } from './health.service.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get(API.health)
  @Header('Cache-Control', 'no-store')
  async check(@Res({ passthrough: true }) res: Response): Promise<Health> {
    if (await this.health.isDatabaseUp()) return { status: 'ok', db: 'up' };
    res.status(503);
    return { status: 'error', db: 'down' };
  }
}
