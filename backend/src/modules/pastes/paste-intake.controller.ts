import { BadRequestException, Controller, Post, Query, Req, Res } from '@nestjs/common';
import {
  API,
  type CreatedPaste,
  type CreatePasteQuery,
  createPasteQuerySchema,
  createPasteSchema,
  LIMITS,
  PAGES,
  tagsOfQuery,
  tagsSchema,
} from '@termpaste/contracts';
import type { Request, Response } from 'express';
import type { AppConfig } from '../../config/config.js';
import { InjectConfig } from '../../config/config.module.js';
import { CurrentUser } from '../auth/guards/current-user.decorator.js';
import { allowsSecrets, refuseSecrets } from '../../common/secrets.js';
import { describeZodError } from '../../common/zod-error.js';
import { ZodValidationPipe } from '../../common/zod-validation.pipe.js';
import { TokenScope } from '../auth/tokens/token-scope.decorator.js';
import type { User } from '../users/entities/user.entity.js';
import { clientOf } from './pastes.controller.js';
import { PastesService } from './pastes.service.js';
import { guessLanguage, languageOfFileName, pasteLanguage } from './languages.js';
import { PasteIntakeGuard, type PasteSubmission } from './paste-intake.js';
import { WriteRateLimited } from '../auth/write-limits.js';

/**
 * The longest start of `text` within `max` UTF-16 units (as titles are counted), never splitting a
 * character in two.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** A paste's title when none is given: its first non-blank line, trimmed and cut to the title's limit. */
export function defaultTitle(content: string): string {
  const line = content.split(/\r\n|\n|\r/).find((candidate) => candidate.trim() !== '') ?? '';
  return clip(line.trim(), LIMITS.titleMax);
}

/** A title the client gave: a non-blank string (a blank one counts as none). */
function given(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/**
 * The body's own tags (a JSON list, or a form's comma-separated text), else `?tags=`'s (already judged):
 * 400 with the first problem's text (TAG_MESSAGES).
 */
function tagsOf(given: unknown, fromQuery: string[] | undefined): string[] | undefined {
  const names = typeof given === 'string' ? tagsOfQuery(given) : given;
  if (names === undefined || names === null) return fromQuery;
  const parsed = tagsSchema.safeParse(names);
  if (!parsed.success) throw new BadRequestException(parsed.error.issues[0]!.message);
  return parsed.data;
}

/**
 * `POST /api/pastes`: a paste from the terminal, with a session or a `pastes:write` token. The body is
 * read by PasteIntakeGuard once the caller may write; the paste is made as the web form's is.
 */
@Controller()
export class PasteIntakeController {
  constructor(
    private readonly pastes: PastesService,
    @InjectConfig() private readonly config: Pick<AppConfig, 'publicUrl' | 'publicUrlSet'>,
  ) {}

  @Post(API.pastes)
  @TokenScope('pastes:write')
  @WriteRateLimited('paste', PasteIntakeGuard)
  async create(
    @CurrentUser() user: User,
    @Query(new ZodValidationPipe(createPasteQuerySchema)) query: CreatePasteQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const submission = req.body as PasteSubmission;
    const content = submission.content;
    const givenTitle = given(submission.title) ?? given(query.title);
    const title =
      givenTitle ??
      (submission.fileName ? clip(submission.fileName, LIMITS.titleMax) : undefined) ??
      (typeof content === 'string' ? defaultTitle(content) : undefined);
    const parsed = createPasteSchema.safeParse({
      title,
      content,
      signature: submission.signature ?? undefined,
    });
    if (!parsed.success) {
      // A title made from blank content is blank too: only the content is at fault.
      const issues = parsed.error.issues.filter(
        (issue) => givenTitle !== undefined || issue.path[0] !== 'title',
      );
      throw new BadRequestException(describeZodError({ issues }, 'body'));
    }
    // Named (a JSON body's own `language` may be null: Markdown), else guessed from a file's name, else
    // terminal output when the content has colours.
    const named = given(submission.language) ?? query.lang;
    const language =
      named === undefined
        ? (languageOfFileName(submission.fileName) ?? guessLanguage(parsed.data.content))
        : named === null
          ? null
          : pasteLanguage(typeof named === 'string' ? named : JSON.stringify(named));

    // A secret in it: 422 with the findings, as text unless JSON is preferred (`?allowSecrets=true` publishes).
    const prefersJson = req.accepts(['text/plain', 'application/json']) === 'application/json';
    await refuseSecrets(parsed.data.content, allowsSecrets(req, false), { plain: !prefersJson });

    const result = await this.pastes.createPaste(
      user,
      {
        ...parsed.data,
        language,
        visibility: query.visibility,
        expiresIn: query.expiresIn,
        burnAfterReading: query.burnAfterReading,
        tags: tagsOf(submission.tags, query.tags),
      },
      { client: clientOf(req), via: 'terminal' },
    );
    if ('held' in result) {
      // Held for review: 202 and what the terminal prints (the JSON object when Accept prefers JSON).
      res.status(202).vary('Accept');
      if (prefersJson) res.json(result);
      else res.type('text/plain; charset=utf-8').send(`${result.message}\n`);
      return;
    }
    const { id } = result;

    const base = this.config.publicUrlSet ? this.config.publicUrl : `${req.protocol}://${req.get('host')}`;
    const created: CreatedPaste = {
      id,
      url: `${base}${PAGES.thread(id)}`,
      rawUrl: `${base}${API.threadRaw(id)}`,
    };
    res.status(201).vary('Accept').location(created.url);
    if (prefersJson) {
      res.json(created);
    } else {
      res.type('text/plain; charset=utf-8').send(`${created.url}\n`);
    }
  }
}
