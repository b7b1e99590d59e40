import { describeWithRedis, redisCommand, startRedis, type RedisHandle } from './support/redis.js';

describeWithRedis('Redis test harness', () => {
  let redis: RedisHandle;

  beforeAll(async () => {
    redis = await startRedis();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  it('runs a Redis on 127.0.0.1 that answers PING', async () => {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await redisCommand(redis.port, 'PING')).toBe('+PONG');
  });

  it('keeps nothing on disk', async () => {
    expect(await redisCommand(redis.port, 'CONFIG GET save')).toBe('*2\r\n$4\r\nsave\r\n$0\r\n');
    expect(await redisCommand(redis.port, 'CONFIG GET appendonly')).toBe(
      '*2\r\n$10\r\nappendonly\r\n$2\r\nno',
    );
  });

  it('is gone once stopped', async () => {
    const other = await startRedis();
    await other.stop();
    await expect(redisCommand(other.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
  });
});
