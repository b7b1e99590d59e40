import type { LoggerService } from '@nestjs/common';

export interface LogEntry {
  level: 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';
  message: string;
  /** Everything else the logger got (stack, context). */
  details: string[];
}

/** Keeps the app's log in memory so tests stay quiet and can assert on it; TEST_LOGS=1 prints it too. */
export class CapturingLogger implements LoggerService {
  readonly entries: LogEntry[] = [];
  private readonly print = process.env.TEST_LOGS === '1';

  log(message: unknown, ...rest: unknown[]): void {
    this.add('log', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.add('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.add('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.add('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.add('verbose', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.add('fatal', message, rest);
  }

  /** The whole log as text, one entry per line. */
  text(): string {
    return this.entries.map((e) => [e.level, e.message, ...e.details].join(' ')).join('\n');
  }

  private add(level: LogEntry['level'], message: unknown, rest: unknown[]): void {
    const entry = { level, message: String(message), details: rest.map(String) };
    this.entries.push(entry);
    if (this.print) console.log(`[${level}] ${entry.message} ${entry.details.join(' ')}`);
  }
}
