// Runs a command to its end, its output on this process's own; `output`, when given, also receives all of it
// (`npm test` keeps the end of a failed step's output for its closing summary).
import { spawn } from 'node:child_process';

/** Resolves when the command exits 0; rejects with `failed(code or signal)`'s message otherwise. */
export function run(command, args, { cwd, env, output, failed } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: output ? ['inherit', 'pipe', 'pipe'] : 'inherit' });
    if (output) {
      child.stdout.on('data', (chunk) => (process.stdout.write(chunk), output(chunk)));
      child.stderr.on('data', (chunk) => (process.stderr.write(chunk), output(chunk)));
    }
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(
            failed
              ? failed(signal ?? `exit ${code}`)
              : `${command} ${args.join(' ')} exited ${code ?? signal}`,
          ),
        );
    });
  });
}
