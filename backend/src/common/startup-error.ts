/** A start-up failure whose message says all a person needs (main.ts prints it without a stack). */
export class StartupError extends Error {
  override readonly name: string = 'StartupError';
}
