// node --test scripts/check-k8s.test.mjs: the deploy/k8s check fails on what it is there to catch (npm test
// runs it before the check itself). Each test plants one fault in the production overlay's render.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { checkKustomizations, documentedSecrets, K8S_DIR, kustomizations, render } from './check-k8s.mjs';
import { ruleProblems } from './lib/k8s-rules.mjs';
import { schemaProblems } from './lib/k8s-schema.mjs';

const kubectl = process.env.KUBECTL ?? 'kubectl';
const noKubectl = spawnSync(kubectl, ['version', '--client'], { stdio: 'ignore' }).status !== 0;
const skip = noKubectl && `${kubectl} not found`;
const secrets = documentedSecrets(readFileSync(join(K8S_DIR, 'README.md'), 'utf8'));

let production;
before(async () => {
  if (!noKubectl) production = (await render(join(K8S_DIR, 'overlays/production'), kubectl)).objects;
});

/** The production render with `plant` applied to a copy; the rules' problems. */
function plantedProblems(plant, { pinned = true } = {}) {
  const objects = structuredClone(production);
  const find = (kind, name) => objects.find((o) => o.kind === kind && o.metadata.name === name);
  const api = find('Deployment', 'termpaste-api');
  plant({ objects, find, api, container: api.spec.template.spec.containers[0] });
  return ruleProblems(objects, { secrets, pinned });
}

const assertOne = (problems, pattern) =>
  assert.ok(
    problems.some((p) => pattern.test(p)),
    `no problem matches ${pattern}:\n${problems.join('\n')}`,
  );

test('the secrets table of deploy/k8s/README.md is read', () => {
  assert.deepEqual([...secrets.keys()], ['termpaste', 'termpaste-forum-tls', 'termpaste-admin-tls']);
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SESSION_SECRET', 'METRICS_TOKEN'])
    assert.ok(secrets.get('termpaste').has(key), key);
});

test('base, dev and production are the kustomizations found', () => {
  assert.deepEqual(kustomizations().slice(0, 1), ['base']);
  for (const name of ['overlays/dev', 'overlays/production']) assert.ok(kustomizations().includes(name));
});

test('the production render passes the rules and the validators', { skip }, async () => {
  assert.deepEqual(ruleProblems(production, { secrets, pinned: true }), []);
  assert.deepEqual(await schemaProblems(production), []);
});

test('a planted Deployment without probes and with an unknown field fails', { skip }, async () => {
  const dir = mkdtempSync(join(os.tmpdir(), 'k8s-check-'));
  try {
    writeFileSync(join(dir, 'kustomization.yaml'), 'resources:\n  - api.yaml\n');
    const api = production.find((o) => o.kind === 'Deployment' && o.metadata.name === 'termpaste-api');
    const bad = structuredClone(api);
    const container = bad.spec.template.spec.containers[0];
    delete container.livenessProbe;
    delete container.readinessProbe;
    container.resources.requestz = container.resources.requests;
    writeFileSync(join(dir, 'api.yaml'), JSON.stringify(bad));
    const { problems } = await checkKustomizations(dir, ['.'], { secrets, kubectl });
    assertOne(problems, /Deployment\/termpaste-api container api: no livenessProbe/);
    assertOne(problems, /Deployment\/termpaste-api container api: no readinessProbe/);
    assertOne(problems, /types: Deployment\/termpaste-api: .*'"?requestz"?' does not exist in type/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a field of the wrong type and a custom resource fail the schemas', { skip }, async () => {
  const objects = structuredClone(production);
  objects.find((o) => o.kind === 'Service').spec.ports[0].port = 'eighty';
  objects.push({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'x' } });
  const problems = await schemaProblems(objects);
  assertOne(problems, /Service\/termpaste-\w+: \/spec\/ports\/0\/port must be integer/);
  assertOne(problems, /ServiceMonitor\/x: no Kubernetes schema/);
});

test('probes on the wrong paths or ports fail', { skip }, () => {
  assertOne(
    plantedProblems(({ container }) => (container.livenessProbe.httpGet.path = '/api/ready')),
    /termpaste-api container api: livenessProbe asks \/api\/ready, expected \/api\/health/,
  );
  assertOne(
    plantedProblems(({ find }) => {
      const worker = find('Deployment', 'termpaste-worker').spec.template.spec.containers[0];
      worker.env.find((e) => e.name === 'WORKER_HEALTH_PORT').value = '4002';
    }),
    /termpaste-worker container worker: WORKER_HEALTH_PORT is 4002/,
  );
  assertOne(
    plantedProblems(({ container }) => (container.readinessProbe.httpGet.port = 'web')),
    /readinessProbe port web is no port of the container/,
  );
});

test('a container without resources or a locked-down security context fails', { skip }, () => {
  const problems = plantedProblems(({ api, container }) => {
    delete container.resources;
    delete api.spec.template.spec.securityContext.runAsNonRoot;
    container.securityContext.readOnlyRootFilesystem = false;
    container.securityContext.capabilities.drop = [];
  });
  for (const pattern of [
    /container api: no cpu and memory requests/,
    /container api: runAsNonRoot is not true/,
    /container api: readOnlyRootFilesystem is not true/,
    /container api: capabilities do not drop ALL/,
  ])
    assertOne(problems, pattern);
});

test('an undocumented secret, a rendered Secret and a missing ConfigMap fail', { skip }, () => {
  const problems = plantedProblems(({ objects, container }) => {
    container.env.find((e) => e.name === 'REDIS_URL').valueFrom.secretKeyRef.name = 'redis';
    container.env.find((e) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.key = 'DB';
    container.envFrom[0].configMapRef.name = 'termpaste-settings';
    objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'termpaste' }, data: {} });
  });
  assertOne(problems, /Secret redis key REDIS_URL is not a secret listed in deploy\/k8s\/README.md/);
  assertOne(problems, /Secret termpaste key DB is not listed/);
  assertOne(problems, /ConfigMap termpaste-settings is in no object of the render/);
  assertOne(problems, /Secret\/termpaste: secrets are created by the operator, never rendered/);
});

test('an autoscaler off the API, a blocking budget and a stray selector fail', { skip }, () => {
  assertOne(
    plantedProblems(
      ({ find }) => (find('HorizontalPodAutoscaler', 'termpaste-api').spec.scaleTargetRef.name = 'x'),
    ),
    /HorizontalPodAutoscaler\/termpaste-api: targets Deployment\/x, not the API's Deployment/,
  );
  assertOne(
    plantedProblems(({ api }) => (api.spec.replicas = 3)),
    /Deployment\/termpaste-api: sets replicas, which its autoscaler owns/,
  );
  assertOne(
    plantedProblems(({ find }) => (find('PodDisruptionBudget', 'termpaste-api').spec.minAvailable = 3)),
    /PodDisruptionBudget\/termpaste-api: minAvailable 3 of 3 replicas blocks drains/,
  );
  assertOne(
    plantedProblems(({ find }) => {
      const { spec } = find('PodDisruptionBudget', 'termpaste-web');
      delete spec.minAvailable;
      spec.maxUnavailable = 0;
    }),
    /PodDisruptionBudget\/termpaste-web: maxUnavailable 0 blocks drains/,
  );
  assertOne(
    plantedProblems(
      ({ find }) => (find('Service', 'termpaste-web').spec.selector['app.kubernetes.io/component'] = 'w'),
    ),
    /Service\/termpaste-web: selector matches 0 Deployments/,
  );
});

test('ingress hosts apart from PUBLIC_URL and the admin origin, and latest images, fail', { skip }, () => {
  const problems = plantedProblems(({ find, container }) => {
    find('Ingress', 'termpaste-forum').spec.rules[0].host = 'elsewhere.example.org';
    find('Ingress', 'termpaste-admin').spec.tls = [];
    container.image = 'termpaste-backend:latest';
  });
  assertOne(
    problems,
    /Ingress\/termpaste-forum: hosts elsewhere.example.org lack paste.example.org \(PUBLIC_URL\)/,
  );
  assertOne(problems, /Ingress\/termpaste-admin: paste-admin.example.org is https .* but has no TLS secret/);
  assertOne(problems, /container api: image termpaste-backend:latest is not pinned/);
});
