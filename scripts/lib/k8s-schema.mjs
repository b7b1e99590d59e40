// Rendered Kubernetes objects against the API's schemas, from the kubernetes-models package: its
// validators (types, required fields, formats) and its TypeScript types, which also know every field's
// name, so a misspelt or misplaced field fails too (the validators let unknown fields through, as the
// API server would, silently dropping them).
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const require = createRequire(import.meta.url);

/** `kind/name` for messages. */
export const describe = (object) => `${object?.kind ?? '?'}/${object?.metadata?.name ?? '?'}`;

/** kubernetes-models' module for an object: `kubernetes-models/apps/v1/Deployment`. */
function modelPath(object) {
  const { apiVersion, kind } = object ?? {};
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !/^[A-Za-z]+$/.test(kind)) return null;
  const path = `kubernetes-models/${apiVersion}/${kind}`;
  try {
    require.resolve(path);
    return path;
  } catch {
    return null;
  }
}

/** One line per object that fails its schema or has no built-in schema (a custom resource). */
export async function schemaProblems(objects) {
  const problems = [];
  for (const object of objects) {
    const path = modelPath(object);
    if (!path) {
      problems.push(
        `${describe(object)}: no Kubernetes schema for ${object?.apiVersion}/${object?.kind} ` +
          '(only built-in kinds: the manifests need no custom resource definitions)',
      );
      continue;
    }
    const Model = (await import(path))[object.kind];
    try {
      new Model(object).validate();
    } catch (error) {
      const details = (error.errors ?? [])
        .map((e) => `${e.instancePath || '/'} ${e.message}`)
        .filter((line, i, all) => all.indexOf(line) === i);
      problems.push(`${describe(object)}: ${details.length ? details.join('; ') : error.message}`);
    }
  }
  return problems;
}

const COMPILER_OPTIONS = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
  lib: ['lib.es2022.d.ts'],
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

/**
 * Type-checks each object as an object literal of its kind's interface (`IDeployment`), in one program
 * held in memory: an unknown field anywhere is an excess property, a wrong type a type error. TypeScript
 * names the first excess field of each object; fix it and run again for the next.
 */
export function strictFieldProblems(objects) {
  const typed = objects.map((object) => ({ object, path: modelPath(object) })).filter((o) => o.path);
  if (typed.length === 0) return [];
  // Never written: a name at the checkout's root, so its imports resolve from its node_modules.
  const file = fileURLToPath(new URL('../../__k8s-check__.ts', import.meta.url));
  const lines = [];
  const starts = [];
  typed.forEach(({ object, path }, i) => {
    lines.push(`import type { I${object.kind} as T${i} } from '${path}';`);
  });
  typed.forEach(({ object }, i) => {
    starts.push(lines.length);
    lines.push(...`export const o${i}: T${i} = ${JSON.stringify(object, null, 1)};`.split('\n'));
  });
  const source = lines.join('\n');
  const host = ts.createCompilerHost(COMPILER_OPTIONS);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, source, language)
      : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  host.readFile = (name) => (name === file ? source : readFile.call(host, name));
  const program = ts.createProgram([file], COMPILER_OPTIONS, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    if (diagnostic.file?.fileName !== file || diagnostic.start === undefined)
      return `schema check: ${message}`;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const index = starts.findLastIndex((start) => start <= line);
    const at = lines[line]?.trim().replace(/[:,{[]+$/, '');
    return `${describe(typed[index]?.object)}: ${message}${at ? ` (at ${at})` : ''}`;
  });
}
