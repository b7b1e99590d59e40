import { SetMetadata } from '@nestjs/common';

/** Metadata key of SignedRequest. */
export const SIGNED_REQUEST = 'termpaste:signed-request';

/**
 * Marks a route whose request carries its own signature, checked by the route itself: that signature is
 * its whole authorization (no session, no cookie is used), so the CSRF check (OriginGuard) does not
 * apply, and a client sending no Origin or Referer (curl, a script) is served like a browser. Only for
 * routes that act on nothing but what the signature names (a presigned upload).
 */
export const SignedRequest = (): MethodDecorator => SetMetadata(SIGNED_REQUEST, true);

/** Whether a route handler is marked with SignedRequest. */
export function isSignedRequestHandler(handler: object): boolean {
  return Reflect.getMetadata(SIGNED_REQUEST, handler) === true;
}
