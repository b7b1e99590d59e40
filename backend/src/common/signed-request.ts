import { SetMetadata } from '@nestjs/common';

/** Metadata key of SignedRequest. */
export const SIGNED_REQUEST = 'termpaste:signed-request';

/**
 * A route whose request carries its own signature as its whole authorization, so no CSRF check applies
 * and curl without Origin is served. Only for routes acting on nothing but what it signs (an upload).
 */
export const SignedRequest = (): MethodDecorator => SetMetadata(SIGNED_REQUEST, true);

/** Whether a route handler is marked with SignedRequest. */
export function isSignedRequestHandler(handler: object): boolean {
  return Reflect.getMetadata(SIGNED_REQUEST, handler) === true;
}
