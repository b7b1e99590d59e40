import { parsePasteRef } from '@termpaste/contracts';

/** An id in a route (/thread/{id}, /profile/{id}) that can name a row; anything else is not found. */
export function isRecordId(text: string): boolean {
  return /^\d{1,10}$/.test(text);
}

/** A paste's ref in a route (/thread/{ref}): its number, or its key; anything else is not found. */
export function isPasteRef(text: string): boolean {
  return parsePasteRef(text) !== null;
}

/** The API answered 404 (errors read '<status>: <body>'). */
export function isNotFoundError(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('404: ');
}
