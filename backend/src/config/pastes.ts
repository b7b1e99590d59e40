import { PASTE_MAX_BYTES_DEFAULT } from '@termpaste/contracts';

export { PASTE_MAX_BYTES_DEFAULT };

/**
 * PASTE_MAX_BYTES may be set from 1 byte to 4 MiB: a paste is held whole in memory while it is read,
 * checked and stored, every page of it (the paste page's JSON, the raw text) is sent whole, and the
 * largest body that carries one (JSON: twice the paste and 64 KiB, see paste-intake.ts) stays within the
 * web container's nginx limit (`client_max_body_size 11m`, deploy/nginx/web.conf.template).
 */
export const PASTE_MAX_BYTES_MAX = 4 * 1_048_576;
