import {
  CoreError,
  materializationReportSchema,
  type CellRouteDescriptor,
  type CellTrafficAutomationDescriptor,
  type MaterializationReport,
  type MaterializationState,
  type CellMaterializationReporter,
} from '@corekit/abstractions';
import { isoAt, type Clock } from '../clock';

interface SideState {
  readonly materializerId: string | null;
  readonly state: MaterializationState;
  readonly observedAtUtc: string | null;
  readonly error: string | null;
  readonly metadata: Readonly<Record<string, string | number | boolean>>;
}

const initial: SideState = {
  materializerId: null,
  state: 'pending',
  observedAtUtc: null,
  error: null,
  metadata: {},
};

/**
 * Precedence used to fold several materialization states into one posture: the worst wins. A route is
 * `applied` only when every managed side of every selected automation reports applied; any `failed` side makes
 * it failed, else any `unavailable` makes it unavailable, else it is still `pending`.
 */
export const postureOrder: readonly MaterializationState[] = ['failed', 'unavailable', 'pending', 'applied'];

export function foldPosture(states: readonly MaterializationState[]): MaterializationState | null {
  if (states.length === 0) return null;
  return postureOrder.find((state) => states.includes(state)) ?? null;
}

const usesProvider = (automation: CellTrafficAutomationDescriptor) =>
  automation.materializationMode === 'provider-managed' ||
  automation.materializationMode === 'provider-and-edge-managed';
const usesEdge = (automation: CellTrafficAutomationDescriptor) =>
  automation.materializationMode === 'edge-managed' ||
  automation.materializationMode === 'provider-and-edge-managed';

/** Keeps the latest provider and edge report per traffic automation and derives published views. */
export class CellMaterializationStore implements CellMaterializationReporter {
  private readonly provider = new Map<string, SideState>();
  private readonly edge = new Map<string, SideState>();

  constructor(
    private readonly clock: Clock,
    private readonly automations: () => readonly CellTrafficAutomationDescriptor[],
  ) {}

  reportProviderMaterialization(automationId: string, report: MaterializationReport): void {
    const automation = this.require(automationId);
    if (!usesProvider(automation)) {
      throw new CoreError(
        'CELL_MATERIALIZATION_NOT_MANAGED',
        `Traffic automation ${automationId} is not provider-managed (mode ${automation.materializationMode})`,
      );
    }
    this.provider.set(automationId, this.toSide(report));
  }

  reportEdgeMaterialization(automationId: string, report: MaterializationReport): void {
    const automation = this.require(automationId);
    if (!usesEdge(automation)) {
      throw new CoreError(
        'CELL_MATERIALIZATION_NOT_MANAGED',
        `Traffic automation ${automationId} is not edge-managed (mode ${automation.materializationMode})`,
      );
    }
    this.edge.set(automationId, this.toSide(report));
  }

  /** A traffic automation with its materialization fields (spec 2.5). */
  automationView(automation: CellTrafficAutomationDescriptor): Record<string, unknown> {
    const view: Record<string, unknown> = { ...automation };
    if (usesProvider(automation)) {
      const side = this.provider.get(automation.id) ?? initial;
      Object.assign(view, {
        providerMaterializerId: side.materializerId,
        providerMaterializationState: side.state,
        providerMaterializationObservedAtUtc: side.observedAtUtc,
        providerMaterializationError: side.error,
      });
    }
    if (usesEdge(automation)) {
      const side = this.edge.get(automation.id) ?? initial;
      Object.assign(view, {
        edgeMaterializerId: side.materializerId,
        edgeMaterializationState: side.state,
        edgeMaterializationObservedAtUtc: side.observedAtUtc,
        edgeMaterializationError: side.error,
      });
      for (const [key, value] of Object.entries(side.metadata)) view[`edgeMaterialization.${key}`] = value;
    }
    return view;
  }

  /**
   * A route with its derived posture: the automations of the route's cell that target it (or the whole cell),
   * the highest priority selected per dimension, and one overall state folded with `postureOrder`.
   */
  routeView(route: CellRouteDescriptor): Record<string, unknown> {
    const candidates = this.automations().filter(
      (automation) =>
        automation.cellId === route.cellId &&
        (automation.routeId === null || automation.routeId === route.id),
    );
    const providerCandidates = candidates.filter(usesProvider);
    const edgeCandidates = candidates.filter(usesEdge);
    const selectedProvider = highestPriority(providerCandidates);
    const selectedEdge = highestPriority(edgeCandidates);

    const sides: SideState[] = [];
    if (selectedProvider) sides.push(this.provider.get(selectedProvider.id) ?? initial);
    if (selectedEdge) sides.push(this.edge.get(selectedEdge.id) ?? initial);
    const selectedDimensions = [...(selectedProvider ? ['provider'] : []), ...(selectedEdge ? ['edge'] : [])];
    const missing = route.requiredDimensions.filter((dimension) => !selectedDimensions.includes(dimension));
    const states = sides.map((side) => side.state);
    if (missing.length > 0) states.push('unavailable');

    const breakdown: Record<MaterializationState, number> = {
      pending: 0,
      applied: 0,
      unavailable: 0,
      failed: 0,
    };
    for (const side of sides) breakdown[side.state]++;
    const observed = sides
      .map((side) => side.observedAtUtc)
      .filter((value): value is string => value !== null)
      .sort();
    const failedSide =
      sides.find((side) => side.state === 'failed' && side.error) ?? sides.find((side) => side.error);

    return {
      ...route,
      materializationState: foldPosture(states),
      materializationObservedAtUtc: observed.at(-1) ?? null,
      materializationError:
        failedSide?.error ??
        (missing.length > 0
          ? `no traffic automation materializes the required dimension(s): ${missing.join(', ')}`
          : null),
      'providerSelection.matchingCandidateCount': providerCandidates.length,
      'providerSelection.selectedAutomationId': selectedProvider?.id ?? null,
      'providerSelection.selectedPriority': selectedProvider?.priority ?? null,
      'edgeSelection.matchingCandidateCount': edgeCandidates.length,
      'edgeSelection.selectedAutomationId': selectedEdge?.id ?? null,
      'edgeSelection.selectedPriority': selectedEdge?.priority ?? null,
      'selection.requiredDimensions': route.requiredDimensions,
      'selection.selectedDimensions': selectedDimensions,
      'materialization.stateBreakdown': breakdown,
    };
  }

  private require(automationId: string): CellTrafficAutomationDescriptor {
    const automation = this.automations().find((candidate) => candidate.id === automationId);
    if (!automation)
      throw new CoreError(
        'CELL_AUTOMATION_NOT_FOUND',
        `No traffic automation "${automationId}" is registered`,
      );
    return automation;
  }

  private toSide(report: MaterializationReport): SideState {
    const parsed = materializationReportSchema.safeParse(report);
    if (!parsed.success) {
      throw new CoreError(
        'CELL_MATERIALIZATION_INVALID',
        `Invalid materialization report: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`,
      );
    }
    const value = parsed.data;
    return {
      materializerId: value.materializerId,
      state: value.state,
      observedAtUtc: value.observedAtUtc ?? isoAt(this.clock.now()),
      error: value.error ?? null,
      metadata: value.metadata,
    };
  }
}

function highestPriority(
  automations: readonly CellTrafficAutomationDescriptor[],
): CellTrafficAutomationDescriptor | undefined {
  return [...automations].sort((a, b) => b.priority - a.priority || a.id.localeCompare(b.id))[0];
}
