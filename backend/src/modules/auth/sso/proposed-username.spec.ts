import { USERNAME, usernameSchema } from '@termpaste/contracts';
import {
  baseUsername,
  FALLBACK_USERNAME,
  numbered,
  usernameCandidates,
  usernameFrom,
} from './proposed-username.js';

describe('proposed usernames', () => {
  it.each([
    ['ada', 'ada'],
    ['grace.hopper', 'grace_hopper'],
    ['Linus Tørvalds!', 'Linus_Torvalds'],
    ['José Müller', 'Jose_Muller'],
    ['Straße', 'Strasse'],
    ['jane.doe@corp.example', 'jane_doe'],
    ['__x--y__', 'x--y'],
    ['a'.repeat(40), 'a'.repeat(32)],
    [`${'a'.repeat(31)}.b`, 'a'.repeat(31)],
  ])('makes %j into %j', (hint, name) => {
    expect(usernameFrom(hint)).toBe(name);
    expect(usernameSchema.safeParse(name).success).toBe(true);
  });

  it.each(['', 'ab', '李小龍', '@example.com', '!!', 'é'])('finds nothing in %j', (hint) => {
    expect(usernameFrom(hint)).toBeUndefined();
  });

  it('takes the first hint that makes a username, else "member"', () => {
    expect(baseUsername(['李', 'grace@x.example', 'Grace'])).toBe('grace');
    expect(baseUsername(['?', '李'])).toBe(FALLBACK_USERNAME);
    expect(baseUsername([])).toBe(FALLBACK_USERNAME);
  });

  it('numbers within the length limit', () => {
    expect(numbered('ada', 2)).toBe('ada_2');
    const long = 'x'.repeat(USERNAME.max);
    expect(numbered(long, 12)).toBe(`${'x'.repeat(USERNAME.max - 3)}_12`);
    expect(numbered(`${'x'.repeat(29)}_yy`, 2)).toBe(`${'x'.repeat(29)}_2`);
    expect(usernameCandidates('ada', 4)).toEqual(['ada', 'ada_2', 'ada_3', 'ada_4']);
    for (const name of usernameCandidates(long, 20))
      expect(usernameSchema.safeParse(name).success).toBe(true);
  });
});
