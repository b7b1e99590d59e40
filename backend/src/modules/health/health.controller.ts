import { Controller, Get, Header, Res } from '@nestjs/common';
import { API, type Health, type Ready } from '@termpaste/contracts';
import type { Response } from 'express';
import { HealthService, LIVENESS_DATABASE_TIMEOUT_MS } from './health.service.js';

@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /**
   * Liveness, for a probe that restarts the process: 200 while it serves. The database is reported, not
   * required: restarting every instance would not bring PostgreSQL back (`/api/ready` is for routing).
   */
  @Get(API.health)
  @Header('Cache-Control', 'no-store')
  async check(): Promise<Health> {
    return {
      status: 'ok',
      db: (await this.health.isDatabaseUp(LIVENESS_DATABASE_TIMEOUT_MS)) ? 'up' : 'down',
    };
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
