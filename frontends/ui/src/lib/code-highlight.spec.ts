import hljs from 'highlight.js/lib/core';
import { common } from 'lowlight';
import { GRAMMARS, grammarOf, loadGrammars, withRequired, type GrammarName } from './code-highlight.js';

const names = Object.keys(GRAMMARS) as GrammarName[];

/** The languages a grammar hands embedded code to (`subLanguage` anywhere in its modes). */
function subLanguages(mode: unknown, found = new Set<string>(), seen = new Set<unknown>()): Set<string> {
  if (!mode || typeof mode !== 'object' || seen.has(mode)) return found;
  seen.add(mode);
  const { subLanguage } = mode as { subLanguage?: string | string[] };
  if (subLanguage) [subLanguage].flat().forEach((name) => found.add(name));
  for (const key of ['contains', 'variants', 'starts'] as const) {
    const value = (mode as Record<string, unknown>)[key];
    for (const child of [value].flat()) subLanguages(child, found, seen);
  }
  return found;
}

describe('GRAMMARS', () => {
  it('offers the languages pastes were always highlighted in (lowlight common)', () => {
    expect([...names].sort()).toEqual(Object.keys(common).sort());
  });

  it.each(names)('%s: its aliases and embedded languages are highlight.js’s own', async (name) => {
    const definition = (await GRAMMARS[name].load()).default(hljs);
    expect([...GRAMMARS[name].aliases].sort()).toEqual([...(definition.aliases ?? [])].sort());
    const embedded = [...subLanguages(definition)].filter((sub) => sub !== name && sub in GRAMMARS);
    expect([...(GRAMMARS[name].requires ?? [])].sort()).toEqual(embedded.sort());
  });

  it('finds a grammar by its name or an alias, in any case', () => {
    expect(grammarOf('python')).toBe('python');
    expect(grammarOf('PY')).toBe('python');
    expect(grammarOf('c++')).toBe('cpp');
    expect(grammarOf('html')).toBe('xml');
    expect(grammarOf('klingon')).toBeUndefined();
  });

  it('loads what a grammar embeds along with it, transitively', () => {
    expect([...withRequired(['typescript'])].sort()).toEqual(
      ['css', 'graphql', 'javascript', 'typescript', 'xml'].sort(),
    );
    expect([...withRequired(['sql'])]).toEqual(['sql']);
  });

  it('registers the loaded grammars under their names and aliases', async () => {
    const engine = await loadGrammars(['shell']);
    expect(engine.registered('console')).toBe(true);
    expect(engine.registered('bash')).toBe(true);
    expect(engine.registered('sh')).toBe(true);
    expect(engine.highlight('console', '$ ls').children.length).toBeGreaterThan(0);
  });
});
