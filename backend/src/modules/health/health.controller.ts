import { Controller, Get, Header, Res } from '@nestjs/common';
import { API, type Health, type Ready } from '@termpaste/contracts';
import type { Response } from 'express';
import { HealthService } from './health.service.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** Liveness: the process serves and its database answers. */
  @Get(API.health)
  @Header('Cache-Control', 'no-store')
  async check(@Res({ passthrough: true }) res: Response): Promise<Health> {
    if (await this.health.isDatabaseUp()) return { status: 'ok', db: 'up' };
    res.status(503);
    return { status: 'error', db: 'down' };
  }

  /**
   * Readiness, for a load balancer: 200 when PostgreSQL and (with REDIS_URL) Redis answer within ~2 s,
   * else 503 naming the part that does not.
   */
  @Get(API.ready)
  @Header('Cache-Control', 'no-store')
  async ready(@Res({ passthrough: true }) res: Response): Promise<Ready> {
    const readiness = await this.health.readiness();
    if (readiness.status !== 'ready') res.status(503);
    return readiness;
  }
}
