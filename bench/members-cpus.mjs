// Where the members ramp's processes may run: the load generator on a core of its own (taskset), so that
// its CPU does not take from the server's and what the ramp measures is Termpaste. See bench/README.md.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { descendants } from './members-probes.mjs';

function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Sets the CPUs (`list`, as taskset reads it: "1" or "0-2") of `pid` and of every thread of it. */
function pin(pid, list) {
  execFileSync('taskset', ['-a', '-c', '-p', list, String(pid)], { stdio: 'ignore' });
}

/**
 * Pins the load generator to `--load-cpus` (the last core by default; `none`: not pinned) and, with
 * `--server-cpus`, the app and its PostgreSQL to those (by default they may run anywhere: on this machine
 * the server keeps both cores, the load generator's share included). Says what it did, in words.
 */
export function placeProcesses({ loadPid, appPid, loadCpus, serverCpus }) {
  const cores = availableParallelism();
  const load = loadCpus ?? (cores >= 2 ? String(cores - 1) : 'none');
  if (load === 'none' && !serverCpus) return 'load generator not pinned';
  if (!hasTaskset()) return 'load generator not pinned (no taskset on this machine)';
  const said = [];
  if (load !== 'none') {
    pin(loadPid, load);
    said.push(`load generator on CPU ${load}`);
  }
  if (serverCpus) {
    // PostgreSQL's backends to come are forked by its postmaster: they inherit its CPUs.
    for (const pid of [appPid, ...descendants(appPid)]) {
      try {
        pin(pid, serverCpus);
      } catch {
        // gone meanwhile
      }
    }
    said.push(`app and PostgreSQL on CPU ${serverCpus}`);
  } else said.push('app and PostgreSQL on any CPU');
  return said.join(', ');
}
