import type { DeploySettings } from './host-configuration';
import type { DeploymentTimings } from './timings';

/** The startup probe's period and threshold covering `budget` seconds, with at most `maxThreshold` tries. */
export function startupCadence(
  budget: number,
  period: number,
  maxThreshold = Number.POSITIVE_INFINITY,
): { periodSeconds: number; failureThreshold: number } {
  let periodSeconds = Math.max(1, period);
  if (Math.ceil(budget / periodSeconds) > maxThreshold) periodSeconds = Math.ceil(budget / maxThreshold);
  return { periodSeconds, failureThreshold: Math.max(1, Math.ceil(budget / periodSeconds)) };
}

/** The three probes, as Kubernetes (and, with limits, container apps) spell them. */
export function probeSettings(timings: DeploymentTimings, port: number, maxThreshold?: number) {
  const timeoutSeconds = timings.get('health.timeoutSeconds');
  return {
    // The startup signal: 200 only once the engine has started, never following a dependency.
    startup: {
      httpGet: { path: '/health/startup', port },
      ...startupCadence(
        timings.get('startup.budgetSeconds'),
        timings.get('readiness.periodSeconds'),
        maxThreshold,
      ),
      timeoutSeconds,
    },
    liveness: {
      httpGet: { path: '/health/live', port },
      periodSeconds: timings.get('liveness.periodSeconds'),
      timeoutSeconds,
      failureThreshold: Math.min(
        timings.get('liveness.failureThreshold'),
        maxThreshold ?? Number.POSITIVE_INFINITY,
      ),
    },
    readiness: {
      httpGet: { path: '/health/ready', port },
      initialDelaySeconds: timings.get('readiness.initialDelaySeconds'),
      periodSeconds: timings.get('readiness.periodSeconds'),
      timeoutSeconds,
      failureThreshold: timings.get('readiness.failureThreshold'),
      successThreshold: 1,
    },
  };
}

/** Namespace, deployment and service of the host. */
export function kubernetesManifests(
  settings: DeploySettings,
  timings: DeploymentTimings,
): Record<string, unknown> {
  const labels = { 'app.kubernetes.io/name': settings.name };
  const probes = probeSettings(timings, settings.port);
  return {
    namespace: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: settings.namespace } },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: settings.name, namespace: settings.namespace, labels },
      spec: {
        replicas: settings.replicas,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            terminationGracePeriodSeconds: timings.get('kubernetes.terminationGracePeriodSeconds'),
            securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 },
            containers: [
              {
                name: settings.name,
                image: settings.image,
                ports: [{ name: 'http', containerPort: settings.port }],
                env: [
                  { name: 'NODE_ENV', value: 'production' },
                  { name: 'PORT', value: String(settings.port) },
                ],
                resources: { requests: { cpu: settings.resources.cpu, memory: settings.resources.memory } },
                securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
                volumeMounts: [{ name: 'tmp', mountPath: '/tmp' }],
                startupProbe: probes.startup,
                livenessProbe: probes.liveness,
                readinessProbe: probes.readiness,
                lifecycle: {
                  preStop: { exec: { command: ['sleep', String(timings.get('preStop.sleepSeconds'))] } },
                },
              },
            ],
            volumes: [{ name: 'tmp', emptyDir: {} }],
          },
        },
      },
    },
    service: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: settings.name, namespace: settings.namespace, labels },
      spec: { selector: labels, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    },
  };
}

/** Container Apps platform limits on probe fields. */
export const containerAppLimits = {
  failureThreshold: 10,
  initialDelaySeconds: 60,
  terminationGracePeriodSeconds: 600,
};

function cores(cpu: string): number {
  return cpu.endsWith('m') ? Number(cpu.slice(0, -1)) / 1000 : Number(cpu);
}
function gibibytes(memory: string): string {
  const match = /^(\d+(?:\.\d+)?)(Mi|Gi)$/.exec(memory);
  if (!match) throw new Error(`deploy.json resources.memory "${memory}" must be <n>Mi or <n>Gi`);
  return `${match[2] === 'Mi' ? Number(match[1]) / 1024 : Number(match[1])}Gi`;
}

/** A container app (`az containerapp create --yaml`) with the same probe timings, within the platform limits. */
export function containerAppManifest(
  settings: DeploySettings,
  timings: DeploymentTimings,
): Record<string, unknown> {
  const probes = probeSettings(timings, settings.port, containerAppLimits.failureThreshold);
  const { successThreshold: _unused, ...readiness } = probes.readiness;
  void _unused;
  return {
    name: settings.name,
    type: 'Microsoft.App/containerApps',
    properties: {
      configuration: { ingress: { external: true, targetPort: settings.port, transport: 'auto' } },
      template: {
        terminationGracePeriodSeconds: Math.min(
          timings.get('kubernetes.terminationGracePeriodSeconds'),
          containerAppLimits.terminationGracePeriodSeconds,
        ),
        containers: [
          {
            name: settings.name,
            image: settings.image,
            env: [
              { name: 'NODE_ENV', value: 'production' },
              { name: 'PORT', value: String(settings.port) },
            ],
            resources: { cpu: cores(settings.resources.cpu), memory: gibibytes(settings.resources.memory) },
            probes: [
              { type: 'Startup', ...probes.startup },
              { type: 'Liveness', ...probes.liveness },
              {
                type: 'Readiness',
                ...readiness,
                initialDelaySeconds: Math.min(
                  readiness.initialDelaySeconds,
                  containerAppLimits.initialDelaySeconds,
                ),
              },
            ],
          },
        ],
        scale: { minReplicas: settings.replicas, maxReplicas: settings.replicas },
      },
    },
  };
}
