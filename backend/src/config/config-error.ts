import { StartupError } from '../common/startup-error.js';

/** A bad environment: its message names each variable at fault and what it must be. */
export class ConfigError extends StartupError {
  override readonly name = 'ConfigError';
}
