import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYERS } from '../src/module-layers.js';

/**
 * Dependencies point down: the graph of src/'s units (a folder of src/modules/, or another folder of
 * src/) derived from the imports, checked against LAYERS (src/module-layers.ts).
 */

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [file] : [];
  });
}

/** The unit a file of src/ belongs to. */
function unitOf(file: string): string {
  const parts = path.relative(SRC, file).split(path.sep);
  // The files at src/'s root and the command line are the composition roots.
  if (parts.length === 1 || parts[0] === 'cli') return 'app';
  return parts[0] === 'modules' ? parts[1]! : parts[0]!;
}

interface Edge {
  from: string;
  to: string;
  /** Both relative to src/. */
  file: string;
  target: string;
}

/** The imports of `file` (its text) that cross units: `from './x.js'`, `import('./x.js')`, `import './x.js'`. */
function edgesOf(file: string, text: string): Edge[] {
  const found: Edge[] = [];
  for (const match of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)) {
    const target = path.resolve(path.dirname(file), match[1]!);
    const from = unitOf(file);
    const to = unitOf(target);
    if (from !== to)
      found.push({ from, to, file: path.relative(SRC, file), target: path.relative(SRC, target) });
  }
  return found;
}

/** The Nest module a folder of src/modules/ declares: `pastes` → `PastesModule`. */
const nestModuleOf = (folder: string) =>
  `${folder.replace(/(?:^|-)([a-z])/g, (_, letter: string) => letter.toUpperCase())}Module`;

const rank = (unit: string) => (LAYERS as readonly string[]).indexOf(unit);

describe('the module graph', () => {
  const files = sources(SRC);
  const edges = files.flatMap((file) => edgesOf(file, readFileSync(file, 'utf8')));

  it('knows every unit of src/', () => {
    const units = [...new Set(files.map(unitOf))].sort();
    expect(units.filter((unit) => rank(unit) < 0)).toEqual([]);
  });

  it('has every import point down the layers', () => {
    const upward = edges.filter((e) => rank(e.to) > rank(e.from)).map((e) => `${e.file} -> ${e.target}`);
    expect([...new Set(upward)].sort()).toEqual([]);
  });

  it('has no Nest module outside a *.module.ts file', () => {
    const hidden = files
      .filter((file) => !file.endsWith('.module.ts') && /@Module\(/.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(SRC, file));
    expect(hidden).toEqual([]);
  });

  it('has in each folder of src/modules/ its <folder>.module.ts exporting <Folder>Module', () => {
    const modules = path.join(SRC, 'modules');
    const folders = readdirSync(modules, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const missing = folders
      .map((entry) => `${entry.name}/${entry.name}.module.ts: ${nestModuleOf(entry.name)}`)
      .filter((want) => {
        const [file, name] = want.split(': ') as [string, string];
        const text = existsSync(path.join(modules, file))
          ? readFileSync(path.join(modules, file), 'utf8')
          : '';
        return !new RegExp(`export class ${name}\\b`).test(text);
      });
    expect(folders.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("names a folder's Nest module in PascalCase", () => {
    expect(['pastes', 'auth', 'review-items'].map(nestModuleOf)).toEqual([
      'PastesModule',
      'AuthModule',
      'ReviewItemsModule',
    ]);
  });

  it('sees an upward import, a dynamic one, and none inside a unit', () => {
    const file = path.join(SRC, 'modules/users/probe.ts');
    const text = [
      "import { PastesService } from '../pastes/pastes.service.js';",
      "const later = () => import('../../infra/queue/queue.module.js');",
      "import { UsersService } from './users.service.js';",
    ].join('\n');
    expect(edgesOf(file, text).map((edge) => [edge.from, edge.to, rank(edge.to) > rank(edge.from)])).toEqual([
      ['users', 'pastes', true],
      ['users', 'infra', false],
    ]);
  });
});
