import { SetMetadata } from '@nestjs/common';

/** Metadata key of SignedRequest. */
export const SIGNED_REQUEST = 'termpaste:signed-request';

/**
 * Marks a route whose request carries its own signature, its whole authorization (no session, no
 * cookie): so no CSRF check, and curl without Origin is served. Only for routes acting on nothing but
 * what the signature names (a presigned upload).
 */
export const SignedRequest = (): MethodDecorator => SetMetadata(SIGNED_REQUEST, true);

/** Whether a route handler is marked with SignedRequest. */
export function isSignedRequestHandler(handler: object): boolean {
  return Reflect.getMetadata(SIGNED_REQUEST, handler) === true;
}
