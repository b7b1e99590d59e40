import { Injectable, Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { DEFAULT_JOB_OPTIONS, type QueueJob, QueueProcessor } from '../../infra/queue/queue.port.js';
import { AKISMET_CHECK_JOB, AKISMET_QUEUE, type AkismetCheckJob } from '../screening/akismet.queue.js';
import { SignalHiding } from './signal-hiding.js';

/** How long one check may take before it counts as failed (and is retried). */
const CHECK_TIMEOUT_MS = 10_000;

/**
 * The Akismet check of a published post (`POST {AKISMET_URL}/1.1/comment-check`): `true` hides it pending
 * review (signal 'akismet'), `false` does nothing, anything else fails the attempt for the queue to retry;
 * the last gives up with a log line, so a post is never held back because the service is down.
 */
@Injectable()
@QueueProcessor(AKISMET_QUEUE)
export class AkismetChecker implements QueueProcessor<AkismetCheckJob> {
  private readonly logger = new Logger('Akismet');

  constructor(
    @InjectConfig() private readonly config: Pick<AppConfig, 'moderation' | 'publicUrl'>,
    private readonly hiding: SignalHiding,
  ) {}

  async process(job: QueueJob<AkismetCheckJob>): Promise<void> {
    if (job.name !== AKISMET_CHECK_JOB) throw new Error(`Unknown Akismet job "${job.name}"`);
    const key = this.config.moderation.akismetKey;
    // The key was removed since the post was queued: no check.
    if (!key) return;
    const post = job.data;
    let spam: boolean;
    try {
      spam = await this.check(key, post);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (job.attemptsMade + 1 < DEFAULT_JOB_OPTIONS.attempts) throw error;
      this.logger.warn(
        `Akismet check of ${post.targetType} ${post.targetId} given up after ${job.attemptsMade + 1} attempts: ${reason}`,
      );
      return;
    }
    if (!spam) return;
    const itemId = await this.hiding.hide(post, 'akismet');
    if (itemId !== null) {
      this.logger.log(`Akismet says ${post.targetType} ${post.targetId} is spam: hidden pending review`);
    }
  }

  /** Akismet's verdict on `post`: true for spam. Throws on anything but `true` or `false`. */
  async check(key: string, post: AkismetCheckJob): Promise<boolean> {
    const form = new URLSearchParams({
      api_key: key,
      blog: this.config.publicUrl,
      user_ip: post.ip ?? '',
      user_agent: post.userAgent ?? '',
      comment_type: 'forum-post',
      comment_author: post.authorName,
      comment_author_email: post.authorEmail,
      comment_content: post.title ? `${post.title}\n\n${post.content}` : post.content,
    });
    const res = await fetch(`${this.config.moderation.akismetUrl}/1.1/comment-check`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: form,
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
    const answer = (await res.text()).trim();
    if (!res.ok) throw new Error(`HTTP ${res.status} from ${res.url}`);
    if (answer === 'true') return true;
    if (answer === 'false') return false;
    // `invalid` (a wrong key) and the like: Akismet explains in X-akismet-debug-help.
    const help = res.headers.get('x-akismet-debug-help');
    throw new Error(`unexpected answer "${answer.slice(0, 100)}"${help ? ` (${help})` : ''}`);
  }
}
