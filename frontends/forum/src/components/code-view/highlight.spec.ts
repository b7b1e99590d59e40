import { highlightLines } from './highlight';
import { decodeLine, encodeLines } from './tokens';

describe('highlighted lines as typed arrays (what the worker transfers)', () => {
  it('decode to the tokens they were made of, cut from each line', async () => {
    const text = 'def f(x):\n    return "a\nb"  # c\n\nx = 1';
    const lines = (await highlightLines('python', text))!;
    const encoded = encodeLines(lines);
    expect(encoded.lineStarts).toBeInstanceOf(Uint32Array);
    text.split('\n').forEach((line, index) => expect(decodeLine(encoded, index, line)).toEqual(lines[index]));
    expect(decodeLine(encoded, 1, '    return "a')).toContainEqual({ text: '"a', className: 'hljs-string' });
  });

  it('give null for a line whose text does not fit them, or past the end', async () => {
    const encoded = encodeLines((await highlightLines('python', 'import os'))!);
    expect(decodeLine(encoded, 0, 'import osx')).toBeNull();
    expect(decodeLine(encoded, 1, '')).toBeNull();
  });

  it('highlights grammars that embed each other (typescript and javascript embed xml, which embeds javascript)', async () => {
    for (const language of ['typescript', 'javascript', 'xml']) {
      const lines = (await highlightLines(language, 'const a = 1;'))!;
      expect(lines).not.toBeNull();
    }
    const [line] = (await highlightLines('typescript', 'const a: number = 1;'))!;
    expect(line).toContainEqual({ text: 'const', className: 'hljs-keyword' });
  });

  it('an unknown grammar highlights nothing', async () => {
    expect(await highlightLines('klingon', 'x')).toBeNull();
  });
});
