import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** Bounds one GraphQL document must stay within. */
export interface GraphQlLimits {
  /** Deepest field nesting (a root field is depth 1). */
  readonly maxDepth: number;
  /** Highest cost: every root field (a behavior call) costs `rootFieldCost`, every other field 1. */
  readonly maxCost: number;
  readonly rootFieldCost: number;
}

interface Measure {
  depth: number;
  cost: number;
}

/** What `measureOperation` found. */
export interface OperationMeasure {
  /** Deepest nesting seen; when `exceeded` is `depth`, the first level over the limit. */
  readonly depth: number;
  /** Cost counted; when `exceeded` is `cost`, the first running total over the limit (the rest is not walked). */
  readonly cost: number;
  /** The limit passed first, or null within both. */
  readonly exceeded: 'depth' | 'cost' | null;
  /** Selections walked: bounded by twice the selections of the document (each fragment is measured once per nesting class). */
  readonly selectionVisits: number;
}

class LimitPassed {
  constructor(
    readonly limit: 'depth' | 'cost',
    readonly value: number,
  ) {}
}

/**
 * Measures an operation in time linear in the document: each fragment is measured once per nesting class (at
 * the root, where a field is a behavior call costing `rootFieldCost`, or nested) and its measure reused at
 * every later spread, and the walk stops as soon as a limit is passed. A fragment cycle (which validation
 * refuses anyway) counts nothing where it closes. Introspection fields count 1 even at the root.
 */
export function measureOperation(
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  limits: GraphQlLimits,
): OperationMeasure {
  const memo = new Map<string, Measure>();
  const visiting = new Set<string>();
  let selectionVisits = 0;

  /** `level` is the nesting of the fields of `selectionSet` (1 at the root); depth is relative to level - 1. */
  function measure(selectionSet: SelectionSetNode, level: number): Measure {
    let depth = 0;
    let cost = 0;
    const add = (inner: Measure, own: number, extraDepth: number) => {
      depth = Math.max(depth, extraDepth + inner.depth);
      if (level - 1 + depth > limits.maxDepth) throw new LimitPassed('depth', level - 1 + depth);
      cost += own + inner.cost;
      if (cost > limits.maxCost) throw new LimitPassed('cost', cost);
    };
    for (const selection of selectionSet.selections) {
      selectionVisits += 1;
      if (selection.kind === Kind.FIELD) {
        if (level > limits.maxDepth) throw new LimitPassed('depth', level);
        const own = level === 1 && !selection.name.value.startsWith('__') ? limits.rootFieldCost : 1;
        const inner = selection.selectionSet
          ? measure(selection.selectionSet, level + 1)
          : { depth: 0, cost: 0 };
        add(inner, own, 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(measure(selection.selectionSet, level), 0, 0);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue;
        const key = `${level === 1 ? 'root' : 'nested'}:${name}`;
        let inner = memo.get(key);
        if (!inner) {
          visiting.add(name);
          try {
            inner = measure(fragment.selectionSet, level);
          } finally {
            visiting.delete(name);
          }
          memo.set(key, inner);
        }
        add(inner, 0, 0);
      }
    }
    return { depth, cost };
  }

  try {
    const { depth, cost } = measure(operation.selectionSet, 1);
    return { depth, cost, exceeded: null, selectionVisits };
  } catch (error) {
    if (!(error instanceof LimitPassed)) throw error;
    return {
      depth: error.limit === 'depth' ? error.value : 0,
      cost: error.limit === 'cost' ? error.value : 0,
      exceeded: error.limit,
      selectionVisits,
    };
  }
}

/** A validation rule refusing operations deeper than `maxDepth` or costlier than `maxCost`. */
export function limitsRule(limits: GraphQlLimits) {
  return (context: ValidationContext): ASTVisitor => {
    const document = context.getDocument();
    const fragments = new Map(
      document.definitions
        .filter(
          (definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION,
        )
        .map((definition) => [definition.name.value, definition]),
    );
    return {
      OperationDefinition(operation) {
        const { depth, cost, exceeded } = measureOperation(operation, fragments, limits);
        if (exceeded === 'depth') {
          context.reportError(
            new GraphQLError(
              `The operation is at least ${depth} levels deep; at most ${limits.maxDepth} are allowed (Engine:GraphQL:MaxDepth)`,
              {
                nodes: [operation],
                extensions: { code: 'DEPTH_LIMIT_EXCEEDED', depth, maxDepth: limits.maxDepth },
              },
            ),
          );
        }
        if (exceeded === 'cost') {
          context.reportError(
            new GraphQLError(
              `The operation costs at least ${cost}; at most ${limits.maxCost} is allowed (Engine:GraphQL:MaxCost)`,
              {
                nodes: [operation],
                extensions: { code: 'COST_LIMIT_EXCEEDED', cost, maxCost: limits.maxCost },
              },
            ),
          );
        }
      },
    };
  };
}
