import type { NextFunction, Request, Response } from 'express';

/** Browsers must not guess a content type other than the one we send (every response, API and files). */
export function noSniff(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
