import { readdir, readFile } from 'node:fs/promises';

/** Live processes whose command line mentions `text` (a data directory), from /proc. */
export async function processesMentioning(text: string): Promise<Array<{ pid: number; cmdline: string }>> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = (await readFile(`/proc/${entry}/cmdline`, 'utf8')).split('\0').join(' ').trim();
      if (cmdline.includes(text)) found.push({ pid: Number(entry), cmdline });
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

/** A pid that certainly belongs to no running process: a child that has exited. */
export async function deadPid(): Promise<number> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid!;
  await new Promise((resolve) => child.once('exit', resolve));
  return pid;
}
