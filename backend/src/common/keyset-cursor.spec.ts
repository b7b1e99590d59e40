import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor, INVALID_CURSOR } from './keyset-cursor.js';

function refused(cursor: string, kind?: 'micros' | 'int'): void {
  expect(() => decodeCursor(cursor, kind)).toThrow(new BadRequestException(INVALID_CURSOR));
}

describe('the cursor codec', () => {
  // Cursors handed out before the codec was one (lists by created_at, and the users directory): clients
  // may still hold them, so they must read the same.
  it('reads the cursors the API has always handed out', () => {
    expect(decodeCursor('MTczMjUwMDAwMDEyMzQ1Njo0Mg')).toEqual({ key: '1732500000123456', id: 42 });
    expect(decodeCursor('LTU6Nw', 'int')).toEqual({ key: '-5', id: 7 });
    expect(decodeCursor('MjE0NzQ4MzY0NzoyMTQ3NDgzNjQ3', 'int')).toEqual({
      key: '2147483647',
      id: 2147483647,
    });
  });

  it('writes them byte for byte as before', () => {
    expect(encodeCursor('1732500000123456', 42)).toBe('MTczMjUwMDAwMDEyMzQ1Njo0Mg');
    expect(encodeCursor(-5, 7)).toBe('LTU6Nw');
  });

  it('round-trips', () => {
    expect(decodeCursor(encodeCursor('-86400000000', 1))).toEqual({ key: '-86400000000', id: 1 });
    expect(decodeCursor(encodeCursor(-2147483648, 9), 'int')).toEqual({ key: '-2147483648', id: 9 });
  });

  it('refuses what it could not have handed out with a 400', () => {
    refused('');
    refused('not a cursor');
    refused(encodeCursor('1', 2147483648));
    refused(encodeCursor('12345678901234567', 1));
    refused(encodeCursor('1.5', 1));
    refused(encodeCursor('1', -1));
    // A reputation is a PostgreSQL integer.
    refused(encodeCursor('2147483648', 1), 'int');
    refused(encodeCursor('-2147483649', 1), 'int');
    refused(encodeCursor('12345678901', 1), 'int');
    refused(encodeCursor('1732500000123456', 1), 'int');
  });
});
