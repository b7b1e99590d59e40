import {
  createReplySchema,
  createPasteSchema,
  sendMessageSchema,
  updateProfileSchema,
  voteSchema,
} from './index.js';
import { ID_MAX, rowId, storableText } from './text.js';

describe('storableText', () => {
  it('drops NUL characters, which PostgreSQL text cannot hold', () => {
    expect(storableText('a\0b\0')).toBe('ab');
  });

  it('replaces lone surrogates, which UTF-8 cannot carry, with U+FFFD and keeps pairs', () => {
    expect(storableText('\ud800')).toBe('\ufffd');
    expect(storableText('a\udfffb')).toBe('a\ufffdb');
    expect(storableText('\udc00\ud800')).toBe('\ufffd\ufffd');
    expect(storableText('emoji 🚀 ok')).toBe('emoji 🚀 ok');
    expect(storableText('\ud83d\ude80\ud83d')).toBe('🚀\ufffd');
  });

  it('leaves other values to the schema', () => {
    expect(storableText(42)).toBe(42);
    expect(storableText(null)).toBeNull();
  });

  it('is applied by every text field a member writes, so what a schema accepts is what is stored', () => {
    expect(createPasteSchema.parse({ title: 't\ud800', content: 'a\0\udfff' })).toEqual({
      title: 't\ufffd',
      content: 'a\ufffd',
    });
    expect(createReplySchema.parse({ content: '\ud800x' }).content).toBe('\ufffdx');
    expect(
      sendMessageSchema.parse({ recipientEmail: 'bob', subject: 's\ud800', content: 'c\udc00' }),
    ).toMatchObject({
      subject: 's\ufffd',
      content: 'c\ufffd',
    });
    expect(updateProfileSchema.parse({ bio: '\ud800' }).bio).toBe('\ufffd');
  });
});

describe('rowId', () => {
  it('takes the ids a PostgreSQL integer holds, and nothing larger', () => {
    expect(rowId.parse(1)).toBe(1);
    expect(rowId.parse(ID_MAX)).toBe(ID_MAX);
    expect(rowId.safeParse(ID_MAX + 1).success).toBe(false);
    expect(rowId.safeParse(0).success).toBe(false);
    expect(rowId.safeParse(Number.MAX_SAFE_INTEGER).success).toBe(false);
  });

  it("bounds the ids in request bodies: a reply's parent and a vote's target", () => {
    expect(createReplySchema.safeParse({ content: 'x', parentId: 2 ** 31 }).success).toBe(false);
    expect(voteSchema.safeParse({ threadId: 2 ** 31, value: 1 }).success).toBe(false);
    expect(voteSchema.safeParse({ replyId: 9_007_199_254_740_991, value: -1 }).success).toBe(false);
  });
});
