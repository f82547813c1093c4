import { z } from 'zod';

/** The configuration section `addAgents` binds (code options win over it). */
export const agentsSectionPath = 'Engine:Agents';

/**
 * `Engine:Agents`, named as the spec's `AgenticRuntimeOptions`. Retry and idempotency are opt-in and
 * process-local: a retry waiting for its delay is not resumed after a restart (the run is then reported
 * interrupted), and the idempotency window is judged by this process's clock.
 */
export const agenticRuntimeOptionsSchema = z
  .object({
    /** Serve `POST /engine/agent-tools/{toolId}/runs` and approval decisions. False answers 404 not-active. Default true. */
    EnableExecution: z.boolean().default(true),
    /** Attempts per run, 1 to 10. 1 (the default) disables retry. */
    ExecutionMaxAttempts: z.number().int().min(1).max(10).default(1),
    /** Wait between two attempts, 0 to 60000 ms. Default 1000. */
    ExecutionRetryDelayMilliseconds: z.number().int().min(0).max(60_000).default(1000),
    /** Answer a repeated run id of a completed run with the first result instead of running again. Default false. */
    EnableExecutionIdempotency: z.boolean().default(false),
    /** How long a completed run suppresses repeats, 1 to 10080 minutes (a week). Default 60. */
    ExecutionIdempotencyRetentionMinutes: z.number().int().min(1).max(10_080).default(60),
    /** Longest one attempt may take, 10 to 600000 ms; the executor's signal aborts then. Default 30000. */
    ExecutionTimeoutMilliseconds: z.number().int().min(10).max(600_000).default(30_000),
    /** Largest `arguments` string accepted, 2 to 1048576 characters. Default 65536. */
    MaxArgumentsLength: z.number().int().min(2).max(1_048_576).default(65_536),
    /** Largest executor output (serialised JSON characters); a larger one fails the run. 2 to 1048576. Default 65536. */
    MaxOutputLength: z.number().int().min(2).max(1_048_576).default(65_536),
    /** Length of output and error summaries in the run catalog, 32 to 2000 characters. Default 200. */
    SummaryMaxLength: z.number().int().min(32).max(2000).default(200),
    /**
     * Whether the principal (or actor) who requested a run may approve or deny it. Default false: separation of
     * duties, a decision by the requester answers 403 AGENT_TOOL_SELF_DECISION.
     */
    AllowSelfApproval: z.boolean().default(false),
    /** Runs kept in the run store, 10 to 100000; the oldest finished runs are dropped first. Default 10000. */
    MaxRuns: z.number().int().min(10).max(100_000).default(10_000),
    /**
     * On a shared store provider (PostgreSQL, Redis): how often each replica reloads the runs other replicas
     * wrote, for the read routes, views, snapshot and surfaces, and looks for runs whose owner stopped renewing
     * its lease. 100 to 60000 ms. Default 1000: a run written on one replica reads the same on every other one
     * within this interval plus one store round trip. Unused on a store that is not shared.
     */
    SharedStoreRefreshMilliseconds: z.number().int().min(100).max(60_000).default(1000),
    /**
     * How long an executing run stays owned by the replica that started it without a renewal, 1000 to 600000
     * ms. Default 15000. After it, another replica reports the run failed with AGENT_TOOL_RUN_INTERRUPTED (once).
     */
    RunLeaseMilliseconds: z.number().int().min(1000).max(600_000).default(15_000),
    /** How often the owner renews the lease of a run it executes, 100 to 300000 ms, below RunLeaseMilliseconds. Default 5000. */
    RunLeaseRenewMilliseconds: z.number().int().min(100).max(300_000).default(5000),
  })
  .superRefine((options, context) => {
    if (options.RunLeaseRenewMilliseconds >= options.RunLeaseMilliseconds) {
      context.addIssue({
        code: 'custom',
        path: ['RunLeaseRenewMilliseconds'],
        message: `must be below RunLeaseMilliseconds (${options.RunLeaseMilliseconds}) so a live run renews its lease before it expires`,
      });
    }
  });

/** The bound `Engine:Agents` section. */
export type AgenticRuntimeOptions = z.output<typeof agenticRuntimeOptionsSchema>;
/** What `addAgents` accepts in code (every key optional). */
export type AgenticRuntimeOptionsInput = z.input<typeof agenticRuntimeOptionsSchema>;
