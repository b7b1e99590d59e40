import { jsonError, program, wantsJson } from './cli.js';

describe('--json', () => {
  it('is seen anywhere before a --', () => {
    expect(wantsJson(['--json'])).toBe(true);
    expect(wantsJson(['delete', '5', '--json'])).toBe(true);
    expect(wantsJson(['--json', 'list'])).toBe(true);
    expect(wantsJson(['a.txt'])).toBe(false);
    expect(wantsJson(['--', '--json'])).toBe(false);
  });

  it('writes an error as {"error", "status"?} on one line', () => {
    expect(jsonError('the server answered 404: Thread not found', 404)).toBe(
      '{"error":"the server answered 404: Thread not found","status":404}\n',
    );
    expect(jsonError('unknown expiry: 2h')).toBe('{"error":"unknown expiry: 2h"}\n');
  });

  it('is an option of every command', () => {
    const root = program();
    expect(root.options.map((option) => option.long)).toContain('--json');
    const commands = root.commands.filter((command) => command.name() !== 'help');
    expect(commands.map((command) => command.name()).sort()).toEqual(
      ['delete', 'edit', 'fork', 'get', 'list', 'login'].sort(),
    );
    for (const command of commands)
      expect({ command: command.name(), json: command.options.some((o) => o.long === '--json') }).toEqual({
        command: command.name(),
        json: true,
      });
  });
});

describe('the options of each command', () => {
  const flags = (name?: string) => {
    const root = program();
    const command = name ? root.commands.find((one) => one.name() === name)! : root;
    return command.options.map((option) => option.long).sort();
  };

  it('a new paste: visibility, expiry, burn, signing', () => {
    expect(flags()).toEqual(
      [
        '--allow-secrets',
        '--burn',
        '--expire',
        '--json',
        '--key',
        '--lang',
        '--private',
        '--sign',
        '--tag',
        '--title',
        '--unlisted',
        '--version',
      ].sort(),
    );
  });

  it('edit and fork: the three visibilities; fork may burn', () => {
    const edit = [
      '--allow-secrets',
      '--expire',
      '--json',
      '--lang',
      '--private',
      '--public',
      '--title',
      '--unlisted',
    ];
    expect(flags('edit')).toEqual([...edit, '--key', '--sign'].sort());
    expect(flags('fork')).toEqual([...edit, '--burn'].sort());
    expect(flags('delete')).toEqual(['--json']);
  });
});
