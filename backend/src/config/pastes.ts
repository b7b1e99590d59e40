import { PASTE_MAX_BYTES_DEFAULT } from '@termpaste/contracts';

export { PASTE_MAX_BYTES_DEFAULT };

/**
 * PASTE_MAX_BYTES: 1 byte to 4 MiB. A paste is held and sent whole, and its largest body (JSON, about
 * twice the paste) must fit nginx's `client_max_body_size 11m` (deploy/nginx/web.conf.template).
 */
export const PASTE_MAX_BYTES_MAX = 4 * 1_048_576;
