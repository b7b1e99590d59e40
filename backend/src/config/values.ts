import { z } from 'zod';

/** Rejects a variable's value: the message follows the variable's name in the ConfigError. */
export function fail(ctx: z.RefinementCtx, message: string): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message });
  return z.NEVER;
}

export const portNumber = z.string().transform((raw, ctx) => {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) return fail(ctx, 'must be a port number');
  return port;
});

export const urlWithProtocols = (protocols: readonly string[]) =>
  z.string().transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return fail(ctx, `must be a URL (${protocols.map((p) => `${p}//`).join(' or ')}…)`);
    }
    if (!protocols.includes(url.protocol)) {
      return fail(ctx, `must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
    }
    return raw;
  });

export const nonEmpty = z.string().trim().min(1, 'must not be blank');

/** A whole number from `min` to `max`, else `must be a whole number<unit> from <min> to <max>`. */
export const wholeNumber = (min: number, max: number, unit = '') =>
  z
    .string()
    .transform((raw, ctx) =>
      /^\d+$/.test(raw) && Number(raw) >= min && Number(raw) <= max
        ? Number(raw)
        : fail(ctx, `must be a whole number${unit} from ${min} to ${max}`),
    );

export const positiveCount = z.string().transform((raw, ctx) => {
  const count = Number(raw);
  if (!/^\d+$/.test(raw) || count < 1) return fail(ctx, 'must be a whole number of at least 1');
  return count;
});

export const onOff = z.enum(['on', 'off'], { error: 'must be on or off' });
