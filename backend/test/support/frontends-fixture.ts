import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface FrontendsFixture {
  dir: string;
  remove(): Promise<void>;
}

/** A FRONTENDS_DIR laid out like the real builds: `<dir>/<app>/dist/<files>`. */
export async function createFrontendsFixture(files: Record<string, string>): Promise<FrontendsFixture> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'termpaste-frontends-'));
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
