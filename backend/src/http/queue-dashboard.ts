import type { INestApplication } from '@nestjs/common';
import { API, POST_MESSAGES, TOKEN_MESSAGES } from '@termpaste/contracts';
import type { Queue } from 'bullmq';
import { type NextFunction, type Request, type Response, Router } from 'express';
import { isBearerRequest } from '../modules/auth/guards/bearer.js';
import { CROSS_SITE_REFUSED, isOwnSiteRequest, trustedOrigins } from '../common/origins.js';
import type { AppConfig } from '../config/config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { type LinkMail, MAIL_QUEUE, type MailMessage } from '../infra/mail/mail.service.js';
import { QUEUE_OPTIONS, type ResolvedQueueOptions } from '../infra/queue/queue.options.js';
import { signedInUser } from '../modules/auth/session-user.js';
import { UsersService } from '../modules/users/users.service.js';

export const QUEUE_DASHBOARD_NEEDS_REDIS =
  'The queue dashboard needs REDIS_URL: without Redis the jobs run inside this process and are kept nowhere to show';

export const QUEUE_DASHBOARD_ACTION_REFUSED =
  'Not available from the queue dashboard (it retries, promotes, cleans, pauses and resumes jobs only)';

/**
 * Where a mail job's text would be: a mail's text is no admin's to read. (Link mails, password reset
 * and verification, are queued as ids only and shown as they are: their token is minted by the worker.)
 */
const MAIL_TEXT_HIDDEN = '(hidden)';

/**
 * The dashboard's writes we allow: retry, promote, clean, pause and resume. Adding, editing, emptying or
 * obliterating stay with the code and the CLI.
 */
const ALLOWED_CHANGES: readonly RegExp[] = [
  /^\/api\/queues\/[^/]+\/[^/]+\/(retry|promote|clean)$/,
  /^\/api\/queues\/[^/]+\/retry\/failed$/,
  /^\/api\/queues\/[^/]+\/clean\/(failed|completed)$/,
  /^\/api\/queues\/[^/]+\/(promote|pause|resume)$/,
  /^\/api\/queues\/(pause|resume)$/,
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Failed jobs can be retried; completed ones not (a mail job run again sends the mail again). */
const ADAPTER_OPTIONS = { allowRetries: true, allowCompletedRetries: false };

function refuse(res: Response, statusCode: number, message: string): void {
  res.status(statusCode).json({ statusCode, message });
}

/**
 * The queue dashboard (bull-board), for signed-in admins only, never with an access token; every queue
 * the app registered. Plain Express is outside OriginGuard, so it refuses cross-site writes itself. Mail
 * jobs hide their text. Without REDIS_URL it answers admins 404.
 */
export async function queueDashboard(app: INestApplication): Promise<Router> {
  const config = app.get<AppConfig>(APP_CONFIG);
  const users = app.get(UsersService);
  const trusted = trustedOrigins(config);
  const router = Router({ caseSensitive: true });

  router.use(async (req: Request, res: Response, next: NextFunction) => {
    // No access token reaches the admin side, even an admin's (no session is read for one anyway).
    if (isBearerRequest(req)) return refuse(res, 403, TOKEN_MESSAGES.notForTokens);
    if (!isOwnSiteRequest(req, trusted)) return refuse(res, 403, CROSS_SITE_REFUSED);
    const user = await signedInUser(req, users);
    if (!user || user.isBanned) return refuse(res, 401, 'Unauthorized');
    if (!user.isAdmin) return refuse(res, 403, POST_MESSAGES.adminRequired);
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  if (!config.redisUrl) {
    router.use((_req: Request, res: Response) => refuse(res, 404, QUEUE_DASHBOARD_NEEDS_REDIS));
    return router;
  }

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method) || ALLOWED_CHANGES.some((route) => route.test(req.path))) return next();
    refuse(res, 403, QUEUE_DASHBOARD_ACTION_REFUSED);
  });

  // Loaded with Redis only: the embedded default never pays for bull-board.
  const [{ createBullBoard }, { BullMQAdapter }, { ExpressAdapter }, { getQueueToken }] = await Promise.all([
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/express'),
    import('@nestjs/bullmq'),
  ]);
  const serverAdapter = new ExpressAdapter().setBasePath(API.adminQueues);
  const { queues } = app.get<ResolvedQueueOptions>(QUEUE_OPTIONS);
  createBullBoard({
    queues: queues.map((name) => {
      const queue = new BullMQAdapter(
        app.get<Queue>(getQueueToken(name), { strict: false }),
        ADAPTER_OPTIONS,
      );
      if (name === MAIL_QUEUE) {
        queue.setFormatter('data', (data: MailMessage | LinkMail) =>
          'kind' in data ? data : { to: data.to, subject: data.subject, text: MAIL_TEXT_HIDDEN },
        );
      }
      return queue;
    }),
    serverAdapter,
    options: { uiConfig: { boardTitle: `${config.productName} queues` } },
  });
  router.use(serverAdapter.getRouter());
  return router;
}
