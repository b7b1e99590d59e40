import { NotFoundException } from '@nestjs/common';

const MAX_INT = 2_147_483_647;

/** A path id as a PostgreSQL integer; anything else cannot name a row, so it is a 404 with `message`. */
export function parseId(raw: string, message: string): number {
  if (!/^\d{1,10}$/.test(raw)) throw new NotFoundException(message);
  const id = Number(raw);
  if (id < 1 || id > MAX_INT) throw new NotFoundException(message);
  return id;
}
