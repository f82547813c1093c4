import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderArtifacts } from './artifacts';
import { readDeploySettings, readEngineConfiguration } from './host-configuration';
import { containerAppLimits } from './manifests';
import { computeTimings } from './timings';

/** Where each computed number lands. */
const usedBy: Record<string, string> = {
  'health.timeoutSeconds': 'timeoutSeconds of every Kubernetes and container-app probe',
  'startup.budgetSeconds':
    'startupProbe periodSeconds × failureThreshold; systemd TimeoutStartSec; IIS startupTimeLimit',
  'readiness.initialDelaySeconds': 'readinessProbe initialDelaySeconds',
  'readiness.periodSeconds': 'readinessProbe periodSeconds; startupProbe periodSeconds',
  'readiness.failureThreshold': 'readinessProbe failureThreshold',
  'liveness.periodSeconds': 'livenessProbe periodSeconds',
  'liveness.failureThreshold': 'livenessProbe failureThreshold',
  'preStop.sleepSeconds': 'Kubernetes lifecycle.preStop sleep',
  'shutdown.stopSeconds': 'systemd TimeoutStopSec; WinSW stoptimeout; docker run --stop-timeout',
  'kubernetes.terminationGracePeriodSeconds': 'Kubernetes and container-app terminationGracePeriodSeconds',
  'restart.delaySeconds': 'systemd RestartSec; WinSW onfailure delay',
};

/** The outcome of `corekit-host check`: the explanation, and the artifacts that differ from a fresh render. */
export interface CheckReport {
  readonly text: string;
  readonly stale: readonly string[];
}

/** Explains every computed number of the host in `directory` and compares its artifacts with a fresh render. */
export function checkHost(directory: string): CheckReport {
  const settings = readDeploySettings(directory);
  const timings = computeTimings(readEngineConfiguration(directory));
  const lines = [
    `${settings.name}: deployment numbers from engine.json + engine.production.json and deploy.json`,
    '',
  ];
  lines.push('Inputs (engine defaults when the key is absent):');
  for (const input of timings.inputs)
    lines.push(`  ${input.symbol} = ${input.value} s  from ${input.source}`);
  lines.push('', 'Computed:');
  for (const number of timings.numbers) {
    lines.push(`  ${number.name} = ${number.value}`);
    lines.push(`    = ${number.formula}`);
    lines.push(`    why: ${number.why}`);
    if (usedBy[number.name]) lines.push(`    used by: ${usedBy[number.name]}`);
  }
  lines.push(
    '',
    `Container apps: failureThreshold at most ${containerAppLimits.failureThreshold} (a longer startup budget lengthens the period instead), initialDelaySeconds at most ${containerAppLimits.initialDelaySeconds}, terminationGracePeriodSeconds at most ${containerAppLimits.terminationGracePeriodSeconds}.`,
    `From deploy.json: port ${settings.port}, replicas ${settings.replicas}, requests cpu ${settings.resources.cpu} memory ${settings.resources.memory}, image ${settings.image}, namespace ${settings.namespace}.`,
    '',
  );
  const stale: string[] = [];
  for (const [relative, content] of renderArtifacts(settings, timings)) {
    const file = path.join(directory, relative);
    if (!existsSync(file) || readFileSync(file, 'utf8') !== content) stale.push(relative);
  }
  lines.push(
    stale.length === 0
      ? 'Artifacts: every file matches the configuration.'
      : `Artifacts out of date (run corekit-host artifacts): ${stale.join(', ')}`,
  );
  return { text: `${lines.join('\n')}\n`, stale };
}

/** Rewrites the artifacts of the host in `directory`; answers the files written. */
export function writeArtifacts(directory: string): string[] {
  const settings = readDeploySettings(directory);
  const files = renderArtifacts(settings, computeTimings(readEngineConfiguration(directory)));
  for (const [relative, content] of files) {
    mkdirSync(path.dirname(path.join(directory, relative)), { recursive: true });
    writeFileSync(path.join(directory, relative), content);
  }
  return [...files.keys()];
}
