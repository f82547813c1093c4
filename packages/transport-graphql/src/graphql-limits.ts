import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
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

/**
 * Measures a selection set, expanding fragments (a fragment cycle, which GraphQL validation refuses anyway,
 * stops the walk). Introspection fields (`__schema`, `__type`) count like any other field.
 */
function measure(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  limits: GraphQlLimits,
  level: number,
  visiting: Set<string>,
): Measure {
  let depth = 0;
  let cost = 0;
  for (const selection of selectionSet.selections) {
    let inner: Measure = { depth: 0, cost: 0 };
    if (selection.kind === Kind.FIELD) {
      const own = level === 1 && !selection.name.value.startsWith('__') ? limits.rootFieldCost : 1;
      if (selection.selectionSet)
        inner = measure(selection.selectionSet, fragments, limits, level + 1, visiting);
      depth = Math.max(depth, 1 + inner.depth);
      cost += own + inner.cost;
      continue;
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, fragments, limits, level, visiting);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      inner = measure(fragment.selectionSet, fragments, limits, level, visiting);
      visiting.delete(name);
    }
    depth = Math.max(depth, inner.depth);
    cost += inner.cost;
  }
  return { depth, cost };
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
        const { depth, cost } = measure(operation.selectionSet, fragments, limits, 1, new Set());
        if (depth > limits.maxDepth) {
          context.reportError(
            new GraphQLError(
              `The operation is ${depth} levels deep; at most ${limits.maxDepth} are allowed (Engine:GraphQL:MaxDepth)`,
              {
                nodes: [operation],
                extensions: { code: 'DEPTH_LIMIT_EXCEEDED', depth, maxDepth: limits.maxDepth },
              },
            ),
          );
        }
        if (cost > limits.maxCost) {
          context.reportError(
            new GraphQLError(
              `The operation costs ${cost}; at most ${limits.maxCost} is allowed (Engine:GraphQL:MaxCost)`,
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
