import { type ForeignKey, loadOrder } from './database-dump.js';

const key = (table: string, references: string): ForeignKey => ({
  name: `${table}_${references}_fkey`,
  table,
  references,
  definition: `FOREIGN KEY (x) REFERENCES ${references}(id)`,
});

describe('loadOrder', () => {
  it('puts each table after the tables it references; a reference to itself is no constraint', () => {
    const keys = [
      key('replies', 'threads'),
      key('threads', 'users'),
      key('replies', 'replies'),
      key('votes', 'replies'),
    ];
    expect(loadOrder(['votes', 'users', 'threads', 'replies', 'migrations'], keys)).toEqual({
      order: ['migrations', 'users', 'threads', 'replies', 'votes'],
      deferred: [],
    });
  });

  it('breaks a cycle by checking the keys that close it after the load', () => {
    const keys = [key('a', 'b'), key('b', 'a'), key('c', 'a')];
    expect(loadOrder(['c', 'b', 'a'], keys)).toEqual({ order: ['a', 'b', 'c'], deferred: [key('a', 'b')] });
  });

  it('ignores keys to tables outside the backup', () => {
    expect(loadOrder(['a'], [key('a', 'elsewhere')])).toEqual({ order: ['a'], deferred: [] });
  });
});
