// Renders deploy/k8s (the base and every overlay) with `kubectl kustomize` and checks each object: against
// the Kubernetes schemas (lib/k8s-schema.mjs) and the house rules (lib/k8s-rules.mjs). `npm test` runs it.
//
//   node scripts/check-k8s.mjs            KUBECTL=/path/to/kubectl picks the binary
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { ruleProblems } from './lib/k8s-rules.mjs';
import { schemaProblems, strictFieldProblems } from './lib/k8s-schema.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const K8S_DIR = join(root, 'deploy/k8s');
const run = promisify(execFile);

// Newer kustomize's notes about the kustomize v2 fields the overlays keep for Debian's kubectl.
const KNOWN_WARNING = /^# Warning: '(bases|patchesStrategicMerge)' is deprecated\./;

/** The kustomizations under `dir`: base/ and each overlays/<name>/, as paths relative to `dir`. */
export function kustomizations(dir = K8S_DIR) {
  const overlays = existsSync(join(dir, 'overlays'))
    ? readdirSync(join(dir, 'overlays'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `overlays/${entry.name}`)
    : [];
  return ['base', ...overlays].filter((name) => existsSync(join(dir, name, 'kustomization.yaml')));
}

/** The objects `kubectl kustomize dir` renders; rejects with kubectl's message when it fails. */
export async function render(dir, kubectl = process.env.KUBECTL ?? 'kubectl') {
  let result;
  try {
    result = await run(kubectl, ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new Error(
      `kubectl kustomize ${relative(root, dir)} failed: ${(error.stderr || error.message).trim()}`,
      { cause: error },
    );
  }
  const warnings = result.stderr.split('\n').filter((line) => line.trim() && !KNOWN_WARNING.test(line));
  const documents = parseAllDocuments(result.stdout);
  const errors = documents.flatMap((doc) => doc.errors.map((e) => e.message));
  if (errors.length > 0) throw new Error(`${relative(root, dir)}: not YAML: ${errors.join('; ')}`);
  return { objects: documents.map((doc) => doc.toJS()).filter((o) => o !== null), warnings };
}

/**
 * The secrets the operator creates, from the table in deploy/k8s/README.md: rows whose first cell is a
 * Secret's name in backquotes, the second cell its keys in backquotes. Name → Set of keys.
 */
export function documentedSecrets(readme) {
  const secrets = new Map();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const name = /^`([a-z0-9.-]+)`$/.exec(cells[1] ?? '')?.[1];
    if (!line.startsWith('|') || !name) continue;
    secrets.set(name, new Set([...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1])));
  }
  return secrets;
}

/**
 * Renders and checks `names` (kustomizations under `dir`): one line per problem, each prefixed with the
 * kustomization's name. Every render's objects are type-checked in one program (it is the slow part).
 */
export async function checkKustomizations(dir, names, { secrets, kubectl } = {}) {
  const renders = await Promise.all(
    names.map(async (name) => {
      try {
        return { name, ...(await render(join(dir, name), kubectl)) };
      } catch (error) {
        return { name, objects: [], warnings: [], failed: error.message };
      }
    }),
  );
  const problems = [];
  for (const { name, objects, warnings, failed } of renders) {
    const tag = (lines) => lines.map((line) => `${name}: ${line}`);
    if (failed) problems.push(`${name}: ${failed}`);
    problems.push(...tag(warnings.map((w) => `kubectl: ${w}`)));
    if (!failed && objects.length === 0) problems.push(`${name}: renders no object`);
    problems.push(...tag(await schemaProblems(objects)));
    // Every overlay but dev's runs images from a registry, pinned to a tag.
    const pinned = name.startsWith('overlays/') && name !== 'overlays/dev';
    problems.push(...tag(ruleProblems(objects, { secrets, pinned })));
  }
  const all = renders.flatMap(({ name, objects }) => objects.map((object) => ({ name, object })));
  const strict = strictFieldProblems(all.map((entry) => entry.object));
  problems.push(...strict.map((line) => `types: ${line}`));
  return { problems, renders };
}

async function main() {
  const started = Date.now();
  const secrets = documentedSecrets(readFileSync(join(K8S_DIR, 'README.md'), 'utf8'));
  const names = kustomizations();
  const { problems, renders } = await checkKustomizations(K8S_DIR, names, { secrets });
  for (const { name, objects } of renders) {
    const kinds = new Map();
    for (const object of objects) kinds.set(object.kind, (kinds.get(object.kind) ?? 0) + 1);
    const list = [...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ');
    console.log(`deploy/k8s/${name}: ${objects.length} objects (${list})`);
  }
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} problems in deploy/k8s:\n${problems.map((p) => `  ${p}`).join('\n')}`,
    );
    process.exit(1);
  }
  console.log(`deploy/k8s: ${names.length} kustomizations render and validate (${took})`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
