import { authorRank, createReplySchema, createPasteSchema, isHotPaste, voteSchema } from './paste-views.js';

describe('paste schemas', () => {
  it('trims the title but keeps the content as written', () => {
    expect(createPasteSchema.parse({ title: '  Hi  ', content: '  indented\n' })).toEqual({
      title: 'Hi',
      content: '  indented\n',
    });
  });

  it('drops NUL characters, which PostgreSQL cannot store', () => {
    expect(createPasteSchema.parse({ title: 'a\0b', content: 'c\0' })).toEqual({
      title: 'ab',
      content: 'c',
    });
    expect(createPasteSchema.safeParse({ title: '\0', content: 'c' }).success).toBe(false);
  });

  it.each([
    [{ title: '', content: 'c' }, 'Title is required'],
    [{ title: 'x'.repeat(201), content: 'c' }, 'Title must be at most 200 characters'],
    [{ title: 't', content: ' \t\n' }, 'Content is required'],
  ])('refuses %#', (body, message) => {
    const result = createPasteSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it("leaves a paste's size to the server (PASTE_MAX_BYTES), and caps a reply at 100000 characters", () => {
    expect(createPasteSchema.safeParse({ title: 't', content: 'x'.repeat(1_048_576) }).success).toBe(true);
    const reply = createReplySchema.safeParse({ content: 'x'.repeat(100_001) });
    expect(reply.error?.issues[0]?.message).toBe('Content must be at most 100000 characters');
    expect(createReplySchema.safeParse({ content: 'x'.repeat(100_000) }).success).toBe(true);
  });

  it('takes an optional language (null: Markdown), resolved by the server', () => {
    expect(createPasteSchema.parse({ title: 't', content: 'c', language: 'py' })).toEqual({
      title: 't',
      content: 'c',
      language: 'py',
    });
    expect(createPasteSchema.parse({ title: 't', content: 'c', language: null }).language).toBeNull();
    expect(createPasteSchema.safeParse({ title: 't', content: 'c', language: 3 }).success).toBe(false);
  });

  it('takes a reply with an optional parent', () => {
    expect(createReplySchema.parse({ content: 'x' })).toEqual({ content: 'x' });
    expect(createReplySchema.parse({ content: 'x', parentId: null })).toEqual({
      content: 'x',
      parentId: null,
    });
    expect(createReplySchema.safeParse({ content: 'x', parentId: 1.5 }).success).toBe(false);
    expect(createReplySchema.safeParse({ content: '' }).success).toBe(false);
  });

  it('takes a vote of 1 or -1 on exactly one target', () => {
    expect(voteSchema.safeParse({ threadId: 1, value: 1 }).success).toBe(true);
    expect(voteSchema.safeParse({ replyId: 1, value: -1 }).success).toBe(true);
    expect(voteSchema.safeParse({ threadId: 1, replyId: 2, value: 1 }).success).toBe(false);
    expect(voteSchema.safeParse({ value: 1 }).success).toBe(false);
    expect(voteSchema.safeParse({ threadId: 1, value: 0 }).success).toBe(false);
  });
});

describe('paste rules', () => {
  it('a paste is hot above 20 replies or above 100 views', () => {
    expect(isHotPaste({ replyCount: 20, viewCount: 100 })).toBe(false);
    expect(isHotPaste({ replyCount: 21, viewCount: 0 })).toBe(true);
    expect(isHotPaste({ replyCount: 0, viewCount: 101 })).toBe(true);
  });

  it("an author's rank: the active grade wins, else the reputation rank", () => {
    expect(authorRank({ reputation: 120, activePremiumRank: null }).name).toBe('Regular');
    expect(authorRank({ reputation: 120, activePremiumRank: 'Cyber Ghost' })).toMatchObject({
      name: 'Cyber Ghost',
      style: 'cyber-ghost',
      isPremium: true,
    });
    expect(authorRank({ reputation: 3, activePremiumRank: 'Not A Grade' }).name).toBe('Newbie');
  });
});
