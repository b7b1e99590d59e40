// Checks deploy/*Dockerfile: every `npm ci` / `npm install` runs with --ignore-scripts and is followed, in
// the same RUN, by scripts/approved-install-scripts.mjs, so that only the install scripts package.json's
// allowScripts approves run in an image (the base image's npm 10 would run them all). And the app page is
// painted in production too: the web nginx asks the api for it, the api image holds the shell's page.
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

/** What the api image must hold for the app page it paints: the shell's index.html and the manifests. */
export const APP_PAGE_FILES = [
  'frontends/shell/dist/index.html',
  'frontends/shell/dist/mf-manifest.json',
  'frontends/forum/dist/mf-manifest.json',
];

/**
 * Problems with the painted app page in production: the web nginx must ask the api for it (a visitor
 * there would get the unpainted index.html from disk), and the api image must carry what it paints from.
 */
export function appPageProblems(apiDockerfile, webTemplate) {
  const problems = [];
  const copied = apiDockerfile
    .split('\n')
    .filter((line) => /^\s*COPY\s+--from=build\s/i.test(line))
    .join(' ');
  for (const file of APP_PAGE_FILES) {
    if (!copied.includes(`/app/${file}`)) problems.push(`deploy/Dockerfile: the api image lacks ${file}`);
  }
  const root = /location \/ \{([^}]*)\}/.exec(webTemplate)?.[1] ?? '';
  const app = /location @app \{([^}]*)\}/.exec(webTemplate)?.[1] ?? '';
  if (!/try_files \$uri @app;/.test(root) || !/proxy_pass http:\/\/termpaste_api;/.test(app)) {
    problems.push('deploy/nginx/web.conf.template: `location /` does not send app paths to the api (@app)');
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
  const read = (file) => readFileSync(path.join(deploy, file), 'utf8');
  for (const problem of appPageProblems(read('Dockerfile'), read('nginx/web.conf.template'))) {
    console.error(problem);
    failed = true;
  }
  process.exit(failed ? 1 : 0);
}
