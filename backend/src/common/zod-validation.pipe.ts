import { type ArgumentMetadata, BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { describeZodError } from './zod-error.js';

/**
 * Validates and parses a request part with a contracts schema. A body's 400 names the field; a query's
 * is its first problem's text, as the schema writes it.
 */
@Injectable()
export class ZodValidationPipe<Schema extends z.ZodType> implements PipeTransform<unknown, z.output<Schema>> {
  constructor(private readonly schema: Schema) {}

  transform(value: unknown, metadata: ArgumentMetadata): z.output<Schema> {
    const result = this.schema.safeParse(value);
    if (!result.success) {
      throw new BadRequestException(
        metadata.type === 'query'
          ? result.error.issues[0]!.message
          : describeZodError(result.error, metadata.data ?? metadata.type),
      );
    }
    return result.data;
  }
}
