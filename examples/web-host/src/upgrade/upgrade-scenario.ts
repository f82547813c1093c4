import { pollUntil } from '@corekit/testing/poll-until';
import { agentsDemoTokens } from '../packs/agents-demo';
import { governanceDemoCredentials } from '../packs/governance-web-demo';

/**
 * The state the upgrade test carries across a release: what `scripts/write-upgrade-fixtures.ts` makes a sample
 * host of the previous release write (one record or more in the stores of eventing, tenant governance, agents
 * and data/CDC; the console's dependency history on its own), and the surfaces both releases are read through.
 * The fixture records what the previous release answered on each surface; the test asserts the current release
 * answers the same.
 */

/** The operator token the sample hosts get (the CDC report route needs one). */
export const upgradeOperatorToken = 'upgrade-operator';

/** The environment of a sample host of the scenario (either release). */
export const upgradeHostEnvironment: Readonly<Record<string, string>> = {
  NODE_ENV: 'development',
  COREKIT_DEBUG: '',
  Engine__Grpc__Port: '0',
  Engine__Web__BindAddress: '127.0.0.1',
  SAMPLE_OPERATOR_TOKEN: upgradeOperatorToken,
};

/** One HTTP answer. */
export interface HostAnswer {
  readonly status: number;
  readonly body: any;
}

/** A request to a running sample host. */
export type HostRequest = (
  path: string,
  init?: { method?: string; token?: string; body?: unknown },
) => Promise<HostAnswer>;

/** Requests against the host at `base`. */
export function hostAt(base: string): HostRequest {
  return async (path, init = {}) => {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        'content-type': 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: response.status, body };
  };
}

const publicationId = 'upgrade-order-1';
const succeededRunId = 'upgrade-run-lookup';
const waitingRunId = 'upgrade-run-refund';
const inviteeId = 'upgrade-invitee@example.test';
const checkpoint = 'upgrade-lsn-1';

function expectStatus(what: string, answer: HostAnswer, status = 200): HostAnswer {
  if (answer.status !== status) {
    throw new Error(`${what}: expected HTTP ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer;
}

/** Writes the scenario's state through the host's routes (the previous release, when making fixtures). */
export async function writeUpgradeState(host: HostRequest): Promise<void> {
  expectStatus(
    'publish',
    await host('/engine/event-publications', {
      method: 'POST',
      body: {
        id: publicationId,
        channelId: 'orders',
        eventType: 'order-placed',
        payload: { orderId: publicationId },
      },
    }),
  );
  await pollUntil(
    () => host(`/engine/event-publications/runtime/${publicationId}`),
    (answer) => answer.status === 200 && answer.body.outcome === 'succeeded',
    { timeoutMs: 30_000 },
  );
  expectStatus(
    'invite',
    await host('/engine/tenant-administration/commands', {
      method: 'POST',
      token: governanceDemoCredentials.bearerToken,
      body: { command: 'invite', tenantId: 'acme', inviteeKind: 'email', inviteeId, roles: ['member'] },
    }),
  );
  const run = (toolId: string, body: unknown) =>
    host(`/engine/agent-tools/${toolId}/runs`, { method: 'POST', token: agentsDemoTokens.agent, body });
  expectStatus(
    'lookup run',
    await run('lookup-ticket', { runId: succeededRunId, arguments: '{"ticketId":"T-100"}' }),
  );
  expectStatus(
    'refund run',
    await run('issue-refund', { runId: waitingRunId, arguments: '{"ticketId":"T-100","amount":25}' }),
  );
  expectStatus(
    'capture report',
    await host('/engine/cdc-capture-runtimes/inventory-sync/reports', {
      method: 'POST',
      token: upgradeOperatorToken,
      body: [
        {
          cdcCaptureId: 'inventory-snapshots',
          reporterId: 'upgrade-connector',
          outcome: 'captured',
          checkpoint,
          capturedChangeCount: 2,
          producedMessageCount: 2,
          acknowledgement: { state: 'acknowledged', acknowledgerServiceType: 'kafka-connect-offsets' },
        },
      ],
    }),
  );
}

/** One surface read after the upgrade: the route, and the part of its answer that must not change. */
export interface UpgradeSurface {
  readonly name: string;
  readonly path: string;
  readonly token?: string;
  /** What must read the same on both releases (per-process and time fields left out). */
  select(answer: HostAnswer): unknown;
}

const pick = (value: any, keys: readonly string[]) =>
  Object.fromEntries(keys.filter((key) => value && key in value).map((key) => [key, value[key]]));
const surfaceOf = (answer: HostAnswer, id: string): Record<string, any> =>
  (answer.body as Array<{ id: string; metadata: Record<string, any> }>).find((surface) => surface.id === id)
    ?.metadata ?? {};
const runFields = ['runId', 'toolId', 'latestOutcome', 'outcomeCounts', 'arguments', 'approval'];

/** The surfaces the stored state shows on: catalogs, by-id routes, the snapshot and the governance surfaces. */
export const upgradeSurfaces: readonly UpgradeSurface[] = [
  {
    name: 'eventing: the publication runtime by id',
    path: `/engine/event-publications/runtime/${publicationId}`,
    select: (answer) => ({
      status: answer.status,
      ...pick(answer.body, ['publicationId', 'outcome', 'acceptedCount', 'succeededCount', 'channelId']),
    }),
  },
  {
    name: 'agents: a finished run by id',
    path: `/engine/agent-tool-runs/${succeededRunId}`,
    select: (answer) => ({ status: answer.status, ...pick(answer.body, runFields) }),
  },
  {
    name: 'agents: the runs waiting for approval',
    path: '/engine/agent-tool-runs/approval-required',
    select: (answer) => (answer.body as any[]).map((run) => pick(run, runFields)),
  },
  {
    name: 'agents: the runs of the snapshot',
    path: '/engine/snapshot',
    select: (answer) =>
      (answer.body.agentToolRuns as any[])
        .filter((run) => run.runId.startsWith('upgrade-'))
        .map((run) => pick(run, runFields))
        .sort((a, b) => String(a.runId).localeCompare(String(b.runId))),
  },
  {
    name: 'data: the capture state by id',
    path: '/engine/cdc-captures/runtime/inventory-snapshots',
    select: (answer) => ({
      status: answer.status,
      ...pick(answer.body, ['checkpoint', 'lastOutcome', 'reporterId', 'capturedChangeCount']),
      acknowledgement: pick(answer.body?.acknowledgement, ['state', 'durableCheckpoint']),
    }),
  },
  {
    name: 'tenant governance: the invitation surface',
    path: '/engine/technology-surfaces',
    select: (answer) =>
      pick(surfaceOf(answer, 'tenant-invitations'), ['invitationCount', 'invitationsByStatus']),
  },
];

/** Every surface's selected answer, by name. */
export async function readUpgradeSurfaces(host: HostRequest): Promise<Record<string, unknown>> {
  const read: Record<string, unknown> = {};
  for (const surface of upgradeSurfaces) {
    const answer = await host(surface.path, surface.token ? { token: surface.token } : {});
    read[surface.name] = surface.select(answer);
  }
  return read;
}
