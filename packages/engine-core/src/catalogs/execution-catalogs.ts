import {
  executionGraphSchema,
  hostedExecutionSchema,
  type CatalogDefinition,
  type ExecutionGraphDescriptor,
  type HostedExecutionDescriptor,
} from '@corekit/abstractions';
import { descriptorCatalog, idsOf, problemCollector } from './catalog-helpers';

/** `/engine/execution-graphs`: nodes reference module ids and capability keys; edges join node ids. */
export const executionGraphCatalog: CatalogDefinition<ExecutionGraphDescriptor> = descriptorCatalog(
  'execution-graphs',
  'Execution graphs',
  'executionGraphs',
  executionGraphSchema,
  {
    description: 'Directed graphs of module capabilities; descriptive, they do not run workflows',
    resolve(entries, context) {
      const { problems, add } = problemCollector('execution-graphs');
      for (const graph of entries) {
        const nodeIds = new Set<string>();
        graph.nodes.forEach((node, index) => {
          if (nodeIds.has(node.id))
            add(graph.id, `nodes.${index}.id`, node.id, `duplicate node id "${node.id}"`);
          nodeIds.add(node.id);
          if (!context.moduleIds.has(node.moduleId)) {
            add(
              graph.id,
              `nodes.${index}.moduleId`,
              node.moduleId,
              `node "${node.id}" references unknown module "${node.moduleId}"`,
            );
          } else if (!context.capabilities.get(node.moduleId)?.has(node.capabilityKey)) {
            add(
              graph.id,
              `nodes.${index}.capabilityKey`,
              node.capabilityKey,
              `node "${node.id}" references capability "${node.capabilityKey}", which module "${node.moduleId}" does not declare`,
            );
          }
        });
        if (!nodeIds.has(graph.entryNodeId))
          add(graph.id, 'entryNodeId', graph.entryNodeId, 'entry node is not one of the graph nodes');
        graph.edges.forEach((edge, index) => {
          for (const end of ['from', 'to'] as const) {
            if (!nodeIds.has(edge[end]))
              add(
                graph.id,
                `edges.${index}.${end}`,
                edge[end],
                `edge references unknown node "${edge[end]}"`,
              );
          }
        });
      }
      return problems;
    },
  },
);

/** `/engine/hosted-executions`: an optional link to one execution graph. */
export const hostedExecutionCatalog: CatalogDefinition<HostedExecutionDescriptor> = descriptorCatalog(
  'hosted-executions',
  'Hosted executions',
  'hostedExecutions',
  hostedExecutionSchema,
  {
    description:
      'Background executions the host runs; those with startsWithHost are started and stopped by the engine',
    resolve(entries, context) {
      const { problems, add } = problemCollector('hosted-executions');
      const graphs = idsOf(context.entries('execution-graphs'));
      for (const execution of entries) {
        if (execution.executionGraphId !== null && !graphs.has(execution.executionGraphId)) {
          add(
            execution.id,
            'executionGraphId',
            execution.executionGraphId,
            `unknown execution graph "${execution.executionGraphId}"`,
          );
        }
      }
      return problems;
    },
  },
);
