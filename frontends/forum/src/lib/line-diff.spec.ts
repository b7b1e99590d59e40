import { lineDiff, sideBySide } from './line-diff';

describe('lineDiff', () => {
  it('numbers each line in the older and the newer version, and counts as the server does', () => {
    const diff = lineDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(diff.lines).toEqual([
      { kind: 'same', text: 'a', oldNumber: 1, newNumber: 1 },
      { kind: 'removed', text: 'b', oldNumber: 2, newNumber: null },
      { kind: 'added', text: 'B', oldNumber: null, newNumber: 2 },
      { kind: 'same', text: 'c', oldNumber: 3, newNumber: 3 },
      { kind: 'added', text: 'd', oldNumber: null, newNumber: 4 },
    ]);
    expect(diff).toMatchObject({ added: 2, removed: 1, exact: true });
  });

  it('takes a final line feed as the end of the last line', () => {
    expect(lineDiff('a\nb', 'a\nb\n')).toMatchObject({ added: 0, removed: 0 });
  });

  it('pairs removed and added runs side by side, padding the shorter', () => {
    const { left, right } = sideBySide(lineDiff('a\nx\ny\nz\n', 'a\nX\nz\nw\n').lines);
    expect(left).toEqual([
      { kind: 'same', text: 'a', number: 1 },
      { kind: 'removed', text: 'x', number: 2 },
      { kind: 'removed', text: 'y', number: 3 },
      { kind: 'same', text: 'z', number: 4 },
      { kind: 'pad' },
    ]);
    expect(right).toEqual([
      { kind: 'same', text: 'a', number: 1 },
      { kind: 'added', text: 'X', number: 2 },
      { kind: 'pad' },
      { kind: 'same', text: 'z', number: 3 },
      { kind: 'added', text: 'w', number: 4 },
    ]);
  });
});
