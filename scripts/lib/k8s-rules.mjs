// The house rules of deploy/k8s, over one rendered kustomization: what the schemas cannot know. Probes
// on the right paths, resources and a locked-down security context on every container, secrets only the
// documented ones (never generated), every reference (Service, ConfigMap, claim, autoscaler target,
// disruption budget, ingress backend) pointing at an object of the same render, and the ingress hosts
// agreeing with PUBLIC_URL and the admin origin.
import { describe } from './k8s-schema.mjs';

/** Probe paths (and port) of each component's Deployment, by its `app.kubernetes.io/component` label. */
export const EXPECTED_PROBES = {
  api: { liveness: '/api/health', readiness: '/api/ready', startup: '/api/health' },
  worker: { liveness: '/health', readiness: '/ready', startup: '/health', port: 3002 },
  web: { liveness: '/remotes/forum/remoteEntry.js', readiness: '/remotes/forum/remoteEntry.js' },
  admin: { liveness: '/remoteEntry.js', readiness: '/remoteEntry.js' },
};

const WORKLOADS = new Set(['Deployment', 'Job', 'CronJob']);

/** The pod template of a workload. */
function podTemplate(object) {
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template;
  return object.spec?.template;
}

const containersOf = (pod) => [...(pod?.spec?.initContainers ?? []), ...(pod?.spec?.containers ?? [])];
const matches = (selector = {}, labels = {}) =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const envValue = (container, name) => container.env?.find((e) => e.name === name)?.value;

function probeRules(deployment, container, problems) {
  const where = `${describe(deployment)} container ${container.name}`;
  const component = deployment.metadata?.labels?.['app.kubernetes.io/component'];
  const expected = EXPECTED_PROBES[component];
  if (!expected) return problems.push(`${where}: no expected probes for component "${component}"`);
  const ports = new Map((container.ports ?? []).flatMap((p) => [[p.name, p.containerPort]]));
  for (const kind of ['liveness', 'readiness', 'startup']) {
    const probe = container[`${kind}Probe`];
    if (!probe) {
      if (kind !== 'startup') problems.push(`${where}: no ${kind}Probe`);
      continue;
    }
    const path = probe.httpGet?.path;
    if (expected[kind] && path !== expected[kind])
      problems.push(`${where}: ${kind}Probe asks ${path ?? '(no HTTP path)'}, expected ${expected[kind]}`);
    const port = probe.httpGet?.port;
    const number = typeof port === 'number' ? port : ports.get(port);
    if (number === undefined)
      problems.push(`${where}: ${kind}Probe port ${port} is no port of the container`);
    else if (expected.port && number !== expected.port)
      problems.push(`${where}: ${kind}Probe on port ${number}, expected ${expected.port}`);
  }
  const healthPort = envValue(container, 'WORKER_HEALTH_PORT');
  if (component === 'worker' && healthPort !== String(expected.port))
    problems.push(`${where}: WORKER_HEALTH_PORT is ${healthPort}, the probes ask ${expected.port}`);
  if (component === 'api' && envValue(container, 'PROCESS_JOBS') !== 'off')
    problems.push(`${where}: PROCESS_JOBS must be off (jobs run on the worker)`);
}

function containerRules(workload, pod, container, problems) {
  const where = `${describe(workload)} container ${container.name}`;
  const { requests = {}, limits = {} } = container.resources ?? {};
  if (!requests.cpu || !requests.memory) problems.push(`${where}: no cpu and memory requests`);
  if (!limits.memory) problems.push(`${where}: no memory limit`);
  const podSecurity = pod.spec?.securityContext ?? {};
  const security = container.securityContext ?? {};
  const either = (key) => security[key] ?? podSecurity[key];
  if (either('runAsNonRoot') !== true) problems.push(`${where}: runAsNonRoot is not true`);
  if (!(either('runAsUser') > 0)) problems.push(`${where}: runAsUser is not a non-root user id`);
  if (either('seccompProfile')?.type !== 'RuntimeDefault')
    problems.push(`${where}: seccomp is not RuntimeDefault`);
  if (security.allowPrivilegeEscalation !== false)
    problems.push(`${where}: allowPrivilegeEscalation is not false`);
  if (security.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
  if (!security.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities do not drop ALL`);
  if (!(container.volumeMounts ?? []).some((m) => m.mountPath === '/tmp'))
    problems.push(`${where}: no writable /tmp (an emptyDir) under its read-only root`);
}

/** Every Secret, ConfigMap and claim a pod template names. */
function* references(pod) {
  for (const container of containersOf(pod)) {
    for (const from of container.envFrom ?? []) {
      if (from.secretRef) yield { kind: 'Secret', name: from.secretRef.name };
      if (from.configMapRef) yield { kind: 'ConfigMap', name: from.configMapRef.name };
    }
    for (const { valueFrom } of container.env ?? []) {
      if (valueFrom?.secretKeyRef) yield { kind: 'Secret', ...valueFrom.secretKeyRef };
      if (valueFrom?.configMapKeyRef) yield { kind: 'ConfigMap', ...valueFrom.configMapKeyRef };
    }
  }
  for (const volume of pod?.spec?.volumes ?? []) {
    if (volume.secret) yield { kind: 'Secret', name: volume.secret.secretName };
    if (volume.configMap) yield { kind: 'ConfigMap', name: volume.configMap.name };
    if (volume.persistentVolumeClaim)
      yield { kind: 'PersistentVolumeClaim', name: volume.persistentVolumeClaim.claimName };
  }
}

function referenceRules(workload, pod, byKind, secrets, problems) {
  for (const ref of references(pod)) {
    const where = `${describe(workload)}: ${ref.kind} ${ref.name}${ref.key ? ` key ${ref.key}` : ''}`;
    if (ref.kind === 'Secret') {
      const keys = secrets.get(ref.name);
      if (!keys) problems.push(`${where} is not a secret listed in deploy/k8s/README.md`);
      else if (ref.key && !keys.has(ref.key)) problems.push(`${where} is not listed in deploy/k8s/README.md`);
      continue;
    }
    const target = byKind(ref.kind).find((o) => o.metadata?.name === ref.name);
    if (!target) problems.push(`${where} is in no object of the render`);
    else if (ref.key && !(ref.key in (target.data ?? {}))) problems.push(`${where}: no such key`);
  }
}

/** The URL's origin and host, or null. */
function parsedUrl(text) {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function ingressRules(byKind, problems) {
  const config = byKind('ConfigMap').find((c) => c.data?.PUBLIC_URL)?.data;
  if (!config) return problems.push('no ConfigMap sets PUBLIC_URL');
  const forum = parsedUrl(config.PUBLIC_URL);
  let admin = null;
  try {
    admin = parsedUrl(JSON.parse(config.REMOTE_URLS ?? '{}').admin);
  } catch {
    problems.push(`REMOTE_URLS is not JSON: ${config.REMOTE_URLS}`);
  }
  if (admin && !(config.ALLOWED_ORIGINS ?? '').split(',').includes(admin.origin))
    problems.push(`ALLOWED_ORIGINS does not list the admin origin ${admin.origin}`);
  const wanted = [
    ['termpaste-web', forum, 'PUBLIC_URL'],
    ['termpaste-admin', admin, "REMOTE_URLS' admin entry"],
  ];
  for (const [service, url, source] of wanted) {
    const ingresses = byKind('Ingress').filter((i) =>
      i.spec?.rules?.some((r) => r.http?.paths?.some((p) => p.backend?.service?.name === service)),
    );
    if (!url) problems.push(`no URL in ${source}`);
    else if (ingresses.length !== 1)
      problems.push(`${ingresses.length} Ingresses route to ${service}, want 1`);
    else {
      const [ingress] = ingresses;
      const hosts = ingress.spec.rules.map((r) => r.host);
      if (!hosts.includes(url.hostname))
        problems.push(`${describe(ingress)}: hosts ${hosts.join(', ')} lack ${url.hostname} (${source})`);
      const tls = (ingress.spec.tls ?? []).some((t) => t.hosts?.includes(url.hostname) && t.secretName);
      if (url.protocol === 'https:' && !tls)
        problems.push(`${describe(ingress)}: ${url.hostname} is https (${source}) but has no TLS secret`);
    }
  }
  for (const ingress of byKind('Ingress')) {
    for (const path of ingress.spec?.rules?.flatMap((r) => r.http?.paths ?? []) ?? []) {
      const { name, port } = path.backend?.service ?? {};
      const service = byKind('Service').find((s) => s.metadata?.name === name);
      if (!service)
        problems.push(`${describe(ingress)}: backend Service ${name} is in no object of the render`);
      else if (!service.spec.ports.some((p) => p.name === port?.name || p.port === port?.number))
        problems.push(`${describe(ingress)}: Service ${name} has no port ${port?.name ?? port?.number}`);
    }
  }
}

function scalingRules(byKind, deployments, problems) {
  const replicasOf = new Map(deployments.map((d) => [d.metadata.name, d.spec?.replicas ?? 1]));
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    const target = hpa.spec?.scaleTargetRef ?? {};
    const deployment = deployments.find((d) => d.metadata.name === target.name);
    const component = deployment?.metadata?.labels?.['app.kubernetes.io/component'];
    if (target.kind !== 'Deployment' || component !== 'api')
      problems.push(`${describe(hpa)}: targets ${target.kind}/${target.name}, not the API's Deployment`);
    else if (deployment.spec?.replicas !== undefined)
      problems.push(`${describe(deployment)}: sets replicas, which its autoscaler owns`);
    if (!(hpa.spec?.minReplicas <= hpa.spec?.maxReplicas)) problems.push(`${describe(hpa)}: min above max`);
    if (deployment) replicasOf.set(deployment.metadata.name, hpa.spec?.minReplicas ?? 1);
  }
  for (const pdb of byKind('PodDisruptionBudget')) {
    const selected = deployments.filter((d) =>
      matches(pdb.spec?.selector?.matchLabels, podTemplate(d)?.metadata?.labels),
    );
    if (selected.length !== 1) {
      problems.push(`${describe(pdb)}: selects ${selected.length} Deployments, want 1`);
      continue;
    }
    const replicas = replicasOf.get(selected[0].metadata.name);
    const { minAvailable, maxUnavailable } = pdb.spec;
    // A budget that allows no disruption blocks every node drain.
    if (typeof minAvailable === 'number' && minAvailable >= replicas)
      problems.push(`${describe(pdb)}: minAvailable ${minAvailable} of ${replicas} replicas blocks drains`);
    if (maxUnavailable === 0 || maxUnavailable === '0%')
      problems.push(`${describe(pdb)}: maxUnavailable 0 blocks drains`);
  }
}

function serviceRules(byKind, deployments, problems) {
  for (const service of byKind('Service')) {
    const selected = deployments.filter((d) =>
      matches(service.spec?.selector, podTemplate(d)?.metadata?.labels),
    );
    if (selected.length !== 1) {
      problems.push(`${describe(service)}: selector matches ${selected.length} Deployments, want 1`);
      continue;
    }
    const ports = containersOf(podTemplate(selected[0])).flatMap((c) => c.ports ?? []);
    for (const { targetPort } of service.spec.ports ?? []) {
      if (!ports.some((p) => p.name === targetPort || p.containerPort === targetPort))
        problems.push(
          `${describe(service)}: targetPort ${targetPort} is no port of ${describe(selected[0])}`,
        );
    }
  }
  const api = byKind('Service').find((s) => s.spec?.selector?.['app.kubernetes.io/component'] === 'api');
  for (const deployment of deployments) {
    for (const container of containersOf(podTemplate(deployment))) {
      const upstream = envValue(container, 'API_UPSTREAM');
      const wanted = api && `${api.metadata.name}:${api.spec.ports[0].port}`;
      if (upstream !== undefined && upstream !== wanted)
        problems.push(`${describe(deployment)}: API_UPSTREAM ${upstream} is not the api Service (${wanted})`);
    }
  }
}

/**
 * The problems of one render (`objects`): `secrets` maps each documented Secret's name to its keys;
 * `pinned` asks every image for a tag other than latest.
 */
export function ruleProblems(objects, { secrets, pinned = false }) {
  const problems = [];
  const byKind = (kind) => objects.filter((o) => o?.kind === kind);
  const deployments = byKind('Deployment');
  for (const secret of byKind('Secret'))
    problems.push(`${describe(secret)}: secrets are created by the operator, never rendered`);
  for (const workload of objects.filter((o) => WORKLOADS.has(o?.kind))) {
    const pod = podTemplate(workload);
    if (
      workload.kind === 'Deployment' &&
      !matches(workload.spec?.selector?.matchLabels, pod?.metadata?.labels)
    )
      problems.push(`${describe(workload)}: its selector does not match its pod template's labels`);
    for (const container of containersOf(pod)) {
      if (workload.kind === 'Deployment') probeRules(workload, container, problems);
      containerRules(workload, pod, container, problems);
      const tag = /:([\w.-]+)$/.exec(container.image ?? '')?.[1];
      if (pinned && (!tag || tag === 'latest'))
        problems.push(
          `${describe(workload)} container ${container.name}: image ${container.image} is not pinned`,
        );
    }
    referenceRules(workload, pod, byKind, secrets, problems);
  }
  for (const ingress of byKind('Ingress')) {
    for (const tls of ingress.spec?.tls ?? []) {
      if (!secrets.has(tls.secretName))
        problems.push(
          `${describe(ingress)}: TLS Secret ${tls.secretName} is not listed in deploy/k8s/README.md`,
        );
    }
  }
  scalingRules(byKind, deployments, problems);
  serviceRules(byKind, deployments, problems);
  ingressRules(byKind, problems);
  return problems;
}
