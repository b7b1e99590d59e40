import { QueryFailedError } from 'typeorm';
import { retryOnConflict } from './retry-on-conflict.js';

/** What TypeORM throws for a statement PostgreSQL refused with `code`. */
function refused(code: string): QueryFailedError {
  return new QueryFailedError('UPDATE users …', [], Object.assign(new Error('refused'), { code }));
}

describe('retryOnConflict', () => {
  it.each(['40P01', '40001'])('runs a transaction PostgreSQL rolled back with %s again', async (code) => {
    let runs = 0;
    const result = await retryOnConflict(async () => {
      runs += 1;
      if (runs === 1) throw refused(code);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(2);
  });

  it('gives up after the last attempt with the last error', async () => {
    let runs = 0;
    const last = refused('40P01');
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw runs === 3 ? last : refused('40P01');
      }),
    ).rejects.toBe(last);
    expect(runs).toBe(3);
  });

  it('throws any other error at once', async () => {
    let runs = 0;
    const unique = refused('23505');
    await expect(
      retryOnConflict(async () => {
        runs += 1;
        throw unique;
      }),
    ).rejects.toBe(unique);
    await expect(retryOnConflict(() => Promise.reject(new Error('plain')))).rejects.toThrow('plain');
    expect(runs).toBe(1);
  });
});
