/**
 * The host part of an address for a server listening on `host`: a wildcard (`0.0.0.0`, `::`) is reached
 * as `localhost`, an IPv6 literal goes in brackets.
 */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}

/** Host names of the loopback interface, as URL.hostname spells them. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
