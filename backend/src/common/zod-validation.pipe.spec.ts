import { BadRequestException } from '@nestjs/common';
import { z } from 'zod';
import { describeZodError } from './zod-error.js';
import { ZodValidationPipe } from './zod-validation.pipe.js';

const schema = z.object({
  username: z.string().min(3),
  profile: z.object({ age: z.number().int() }),
  tags: z.array(z.string()).default([]),
});

function rejection(pipe: ZodValidationPipe<z.ZodType>, value: unknown, data?: string): BadRequestException {
  try {
    pipe.transform(value, { type: 'body', data });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return error as BadRequestException;
  }
  throw new Error('expected a BadRequestException');
}

describe('ZodValidationPipe', () => {
  const pipe = new ZodValidationPipe(schema);

  it('returns the parsed value (defaults applied)', () => {
    expect(pipe.transform({ username: 'neo', profile: { age: 30 } }, { type: 'body' })).toEqual({
      username: 'neo',
      profile: { age: 30 },
      tags: [],
    });
  });

  it('is a 400 naming each bad field, nested ones by their path', () => {
    const error = rejection(pipe, { username: 'x', profile: { age: 1.5 } });
    expect(error.getStatus()).toBe(400);
    expect(error.message).toMatch(/^username: .*3.*; profile\.age: /);
  });

  it('names the whole value after the parameter when it is not an object', () => {
    expect(rejection(new ZodValidationPipe(z.coerce.number().int()), 'abc', 'page').message).toMatch(
      /^page: /,
    );
    expect(rejection(pipe, undefined).message).toMatch(/^body: /);
  });
});

describe('ZodValidationPipe on a query string', () => {
  const query = z.object({
    a: z.string().max(1, { error: 'A is too long' }),
    b: z.string().max(1, { error: 'B is too long' }),
  });

  it("is a 400 with the first problem's own text, no field name in front", () => {
    const pipe = new ZodValidationPipe(query);
    let error: unknown;
    try {
      pipe.transform({ a: 'xx', b: 'yy' }, { type: 'query' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(BadRequestException);
    expect((error as BadRequestException).message).toBe('A is too long');
    expect(pipe.transform({ a: 'x', b: 'y', other: 'z' }, { type: 'query' })).toEqual({ a: 'x', b: 'y' });
  });
});

describe('describeZodError', () => {
  it('joins every issue on one line', () => {
    const result = z.object({ a: z.string(), b: z.string() }).safeParse({});
    expect(result.success).toBe(false);
    expect(describeZodError(result.error!)).toMatch(/^a: [^;]+; b: [^;]+$/);
  });
});
