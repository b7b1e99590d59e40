import { PASTE_MAX_BYTES_DEFAULT } from '@termpaste/contracts';

export { PASTE_MAX_BYTES_DEFAULT };

/**
 * PASTE_MAX_BYTES: 1 byte to 4 MiB. A paste is held and sent whole, and the largest body carrying one
 * (JSON: twice the paste and 64 KiB, paste-intake.ts) must stay within nginx's `client_max_body_size 11m`
 * (deploy/nginx/web.conf.template).
 */
export const PASTE_MAX_BYTES_MAX = 4 * 1_048_576;
