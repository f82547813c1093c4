import type { CdcCaptureDescriptor } from '@corekit/abstractions';
import type { CdcExecutionRuntimeOptions } from './data-options';

/** The resolved binding of one capture (the spec's executionBinding). */
export interface ExecutionBinding {
  readonly authoredExecutionRuntimeId: string | null;
  readonly requestedExecutionRuntimeId: string | null;
  readonly effectiveExecutionRuntimeId: string | null;
  readonly resolvedOwnershipMode: string | null;
  readonly executionTopology: string | null;
  /**
   * host-declared-runtime (a runtime's CdcCaptureIds lists it), module-authored-runtime (the declaration names
   * a runtime), provider-default-runtime (a shipped pump serves the capture's provider) or
   * no-runtime-selected (declared only: nothing runs or reports it yet).
   */
  readonly selectionReason: string | null;
}

/** A runtime as the pack knows it: shipped or declared by the host. */
export interface RuntimeDeclaration {
  readonly id: string;
  readonly displayName: string;
  readonly description: string;
  /** Captures the host assigned to it explicitly. */
  readonly declaredCdcCaptureIds: readonly string[];
  readonly executionOwnership: string;
  readonly executionTopology: string;
  readonly acknowledgementMode: string;
  readonly hostedExecutionId: string | null;
  readonly executionGraphId: string | null;
  readonly reporterLeaseSeconds: number;
  readonly rejectConflictingReporterIds: boolean;
  /** Reporter ids allowed to report; null means any. */
  readonly reporterIds: readonly string[] | null;
  readonly edgeNodeIds: readonly string[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Capture providers this runtime serves when no runtime was requested (shipped pumps only). */
  readonly defaultForProviders: readonly string[];
  /** True for shipped runtimes the engine runs itself. */
  readonly shipped: boolean;
}

const kindDefaults = {
  'external-managed': ['external-managed', 'external-process', 'external-reported'],
  'provider-native': ['provider-managed', 'provider-native', 'provider-native'],
  edge: ['edge-managed', 'edge', 'edge-reported'],
} as const;

/** Turns a `CdcExecutionRuntimes` entry into a declaration. */
export function declaredRuntime(options: CdcExecutionRuntimeOptions): RuntimeDeclaration {
  const [ownership, topology, acknowledgement] = kindDefaults[options.Kind];
  return {
    id: options.Id,
    displayName: options.DisplayName ?? options.Id,
    description: options.Description,
    declaredCdcCaptureIds: options.CdcCaptureIds,
    executionOwnership: options.ExecutionOwnership ?? ownership,
    executionTopology: options.ExecutionTopology ?? topology,
    acknowledgementMode: options.AcknowledgementMode ?? acknowledgement,
    hostedExecutionId: null,
    executionGraphId: null,
    reporterLeaseSeconds: options.ReporterLeaseSeconds,
    rejectConflictingReporterIds: options.RejectConflictingReporterIds,
    reporterIds: options.ReporterIds ?? null,
    edgeNodeIds: options.EdgeNodeIds,
    metadata: { ...options.Metadata, kind: options.Kind },
    defaultForProviders: [],
    shipped: false,
  };
}

/** Where a capture names its runtime: `executionBinding.authoredExecutionRuntimeId` or `metadata.executionRuntimeId`. */
export function authoredRuntimeOf(capture: CdcCaptureDescriptor): string | null {
  const authored = capture.executionBinding?.authoredExecutionRuntimeId;
  if (authored) return authored;
  const fromMetadata = capture.metadata.executionRuntimeId;
  return typeof fromMetadata === 'string' && fromMetadata.length > 0 ? fromMetadata : null;
}

/** Edge node a capture is pinned to (`metadata.edgeNodeId`), if any. */
export function edgeNodeOf(capture: CdcCaptureDescriptor): string | null {
  const value = capture.metadata.edgeNodeId;
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export interface BindingResolution {
  readonly bindings: ReadonlyMap<string, ExecutionBinding>;
  readonly problems: readonly string[];
}

/**
 * Resolves every capture's binding and lists every problem: duplicate runtime ids, a runtime listing an
 * unknown capture, a capture listed by two runtimes, an authored runtime that does not exist, an edge runtime
 * without nodes and a capture pinned to an edge node its runtime does not declare.
 */
export function resolveBindings(
  captures: readonly CdcCaptureDescriptor[],
  runtimes: readonly RuntimeDeclaration[],
): BindingResolution {
  const problems: string[] = [];
  const byId = new Map<string, RuntimeDeclaration>();
  for (const runtime of runtimes) {
    if (byId.has(runtime.id)) problems.push(`CDC execution runtime "${runtime.id}" is declared twice`);
    byId.set(runtime.id, runtime);
    if (runtime.executionTopology === 'edge' && runtime.edgeNodeIds.length === 0) {
      problems.push(`CDC execution runtime "${runtime.id}" is an edge runtime but declares no EdgeNodeIds`);
    }
  }
  const captureIds = new Set(captures.map((capture) => capture.id));
  const owners = new Map<string, string[]>();
  for (const runtime of byId.values()) {
    for (const captureId of runtime.declaredCdcCaptureIds) {
      if (!captureIds.has(captureId)) {
        problems.push(
          `CDC execution runtime "${runtime.id}" lists unknown capture "${captureId}" (declared captures: ${[...captureIds].join(', ') || 'none'})`,
        );
        continue;
      }
      owners.set(captureId, [...(owners.get(captureId) ?? []), runtime.id]);
    }
  }
  const bindings = new Map<string, ExecutionBinding>();
  for (const capture of captures) {
    const declaredOwners = [...new Set(owners.get(capture.id) ?? [])];
    if (declaredOwners.length > 1) {
      problems.push(
        `capture "${capture.id}" is owned by more than one runtime: ${declaredOwners.join(', ')}`,
      );
    }
    const authored = authoredRuntimeOf(capture);
    if (authored !== null && !byId.has(authored)) {
      problems.push(
        `capture "${capture.id}" names unknown execution runtime "${authored}" (known: ${[...byId.keys()].join(', ')})`,
      );
    }
    const requested = declaredOwners[0] ?? authored;
    let effective: RuntimeDeclaration | undefined;
    let reason: string;
    if (declaredOwners.length > 0) {
      effective = byId.get(declaredOwners[0]);
      reason = 'host-declared-runtime';
    } else if (authored !== null) {
      effective = byId.get(authored);
      reason = 'module-authored-runtime';
    } else {
      effective = [...byId.values()].find((runtime) =>
        runtime.defaultForProviders.includes(capture.provider),
      );
      reason = effective ? 'provider-default-runtime' : 'no-runtime-selected';
    }
    const edgeNode = edgeNodeOf(capture);
    if (edgeNode !== null && effective && !effective.edgeNodeIds.includes(edgeNode)) {
      problems.push(
        `capture "${capture.id}" is pinned to edge node "${edgeNode}", which runtime "${effective.id}" does not declare (EdgeNodeIds: ${effective.edgeNodeIds.join(', ') || 'none'})`,
      );
    }
    bindings.set(capture.id, {
      authoredExecutionRuntimeId: authored,
      requestedExecutionRuntimeId: requested,
      effectiveExecutionRuntimeId: effective?.id ?? null,
      resolvedOwnershipMode: effective?.executionOwnership ?? null,
      executionTopology: effective?.executionTopology ?? null,
      selectionReason: effective || reason === 'no-runtime-selected' ? reason : null,
    });
  }
  return { bindings, problems };
}
