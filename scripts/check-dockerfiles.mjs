// Checks deploy/*Dockerfile: every `npm ci` / `npm install` runs with --ignore-scripts and is followed, in
// the same RUN, by scripts/approved-install-scripts.mjs, so that only the install scripts package.json's
// allowScripts approves run in an image (the base image's npm 10 would run them all).
// node scripts/check-dockerfiles.mjs exits 1 with the problems; npm run lint runs its test.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const APPROVED_SCRIPTS = 'node scripts/approved-install-scripts.mjs';

/** The RUN instructions' shell commands, continuation lines joined. */
function runCommands(dockerfile) {
  const joined = dockerfile
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => /^\s*RUN\s+(.*)$/i.exec(line)?.[1])
    .filter((command) => command !== undefined);
}

/** Problems with the npm installs of one Dockerfile's text; empty when every one honours allowScripts. */
export function installScriptProblems(dockerfile) {
  const problems = [];
  for (const run of runCommands(dockerfile)) {
    const steps = run.split(/&&|;|\|\|/).map((step) => step.trim().replace(/\s+/g, ' '));
    steps.forEach((step, index) => {
      if (!/(^|\s)npm\s+(ci|install|i|add|clean-install|install-clean|isntall)(\s|$)/.test(step)) return;
      if (!/(^|\s)--ignore-scripts(=true)?(\s|$)/.test(step)) {
        problems.push(`\`${step}\` runs every dependency's install script: add --ignore-scripts`);
      } else if (!steps.slice(index + 1).includes(APPROVED_SCRIPTS)) {
        problems.push(`\`${step}\` is not followed by \`${APPROVED_SCRIPTS}\` in the same RUN`);
      }
    });
  }
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const deploy = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'deploy');
  const files = readdirSync(deploy).filter((name) => name.endsWith('Dockerfile'));
  let failed = false;
  for (const name of files) {
    for (const problem of installScriptProblems(readFileSync(path.join(deploy, name), 'utf8'))) {
      console.error(`deploy/${name}: ${problem}`);
      failed = true;
    }
  }
  process.exit(failed ? 1 : 0);
}
