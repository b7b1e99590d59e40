import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { escapeControl, escapeFields, escapeStack } from './escape.js';

/**
 * LOG_FORMAT=pretty: Nest's console logger, with every message, context and stack trace escaped
 * (escape.ts) before it is coloured and written, so a value in a line cannot forge another line.
 */
export class PrettyLogger extends ConsoleLogger {
  protected override stringifyMessage(message: unknown, logLevel: LogLevel): string {
    const resolved = this.resolveMessage(message);
    return super.stringifyMessage(
      typeof resolved === 'string' ? escapeControl(resolved) : escapeFields(resolved),
      logLevel,
    );
  }

  protected override formatContext(context: string): string {
    return super.formatContext(escapeControl(context));
  }

  protected override printStackTrace(stack: string): void {
    super.printStackTrace(stack ? escapeStack(stack) : stack);
  }
}
