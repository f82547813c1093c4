import {
  defineOperation,
  OperationError,
  operationResponse,
  type OperationDefinition,
  runtimeStoryEntrySchema,
  type StoreProviderTraits,
} from '@corekit/abstractions';
import { z } from 'zod';
import { negotiateEncoding, type ConsoleAssets } from './console-assets';
import {
  consolePage,
  consoleSecurityHeaders,
  immutableCacheControl,
  securityHeadersWithForms,
  type ConsolePageSession,
} from './console-page';
import { summarize, type DependencyHistory } from './dependency-history';
import type { ConsoleOptions } from './console-options';
import type { DependencyTransitions } from './dependency-transitions';
import type { RuntimeLifecycleLog } from './runtime-lifecycle-log';
import { catalogIndex, catalogIndexEntrySchema } from './catalog-index';
import { operatorViewDocumentSchema, operatorViews } from './operator-views';

/** Where the console lives; every operation path is under it, so `/engine` exposure applies to all of them. */
export const consolePath = '/engine/console';

export interface ConsoleOperationParts {
  readonly assets: ConsoleAssets;
  readonly options: ConsoleOptions;
  readonly history: DependencyHistory;
  readonly transitions: DependencyTransitions;
  readonly lifecycle: RuntimeLifecycleLog;
  /** The store provider's traits, read when the engine started (null before). */
  readonly storeTraits: () => StoreProviderTraits | null;
  /** The browser session of a request (sign-in enabled): the page then shows who is signed in and a sign-out. */
  readonly pageSession?: (
    headers: Readonly<Record<string, string | undefined>>,
  ) => Promise<ConsolePageSession | undefined>;
}

const historySampleSchema = z.object({
  checkedAtUtc: z.string(),
  status: z.enum(['Healthy', 'Degraded', 'Unhealthy']),
  outcome: z.enum(['healthy', 'degraded', 'failed', 'timed-out']),
  durationMs: z.number().nullable(),
});

const storePostureSchema = z
  .object({ kind: z.string(), durable: z.boolean(), shared: z.boolean() })
  .nullable()
  .describe('the store provider the history lives on, as installed (null before the engine started)');

/** `GET /engine/console/history/{dependencyId}`: the answer. */
export const dependencyHistoryDocumentSchema = z.object({
  dependencyId: z.string(),
  windowMinutes: z.number().int(),
  retentionMinutes: z.number().int(),
  store: storePostureSchema,
  summary: z.object({
    checks: z.number().int(),
    available: z.number().int(),
    uptimePercent: z.number().nullable(),
    averageDurationMs: z.number().nullable(),
    p95DurationMs: z.number().nullable(),
    outcomes: z.record(z.string(), z.number().int()),
  }),
  samples: z.array(historySampleSchema),
});

const outcomeSchema = z.enum(['healthy', 'degraded', 'failed', 'timed-out']);

/** `GET /engine/console/transitions/{dependencyId}`: the answer, newest first. */
export const dependencyTransitionsDocumentSchema = z.object({
  dependencyId: z.string(),
  current: z.object({ outcome: outcomeSchema, sinceUtc: z.string() }).nullable(),
  transitions: z.array(
    z.object({
      from: outcomeSchema.nullable().describe('null: the first check the store saw'),
      to: outcomeSchema,
      atUtc: z.string(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
      description: z.string().nullable(),
    }),
  ),
});

/** `GET /engine/console/info`: what the console is running with, read from the installation. */
export const consoleInfoDocumentSchema = z.object({
  title: z.string(),
  history: z.object({
    retentionMinutes: z.number().int(),
    bucketSeconds: z.number().int(),
    store: storePostureSchema,
  }),
});

function textAnswer(body: string, contentType: string, headers: Record<string, string> = {}) {
  return operationResponse(200, body, { contentType, headers: { ...consoleSecurityHeaders, ...headers } });
}

/** The console's operations: the page, its assets, and the JSON it needs beyond the existing `/engine` routes. */
export function consoleOperations(parts: ConsoleOperationParts): OperationDefinition<any, any, any, any>[] {
  const { assets, options, history, transitions, lifecycle } = parts;
  const requireDependency = (engine: { dependencies(): readonly { id: string }[] }, id: string) => {
    if (!engine.dependencies().some((entry) => entry.id === id)) {
      throw new OperationError(
        'not-found',
        'CONSOLE_DEPENDENCY_NOT_FOUND',
        `No dependency is registered with id ${id}`,
      );
    }
  };
  const page = consolePage(assets, options.Title);
  return [
    defineOperation({
      id: 'console.page',
      method: 'GET',
      path: consolePath,
      summary: 'The operator console (HTML)',
      description:
        'The browser console over the /engine surfaces. Views are addressed by the URL fragment (#/dependencies/{id}, #/story, #/catalogs/{id}); every URL in the page is relative.',
      tags: ['Console'],
      result: z.string().describe('text/html'),
      servedWhileDraining: true,
      handler: async (_input, context) => {
        // With a trailing slash every relative URL of the page would resolve one level too deep: send the
        // browser to the one address (relative Location, so a proxy's sub-path is kept).
        if (context.requestPath?.endsWith('/')) {
          return operationResponse(308, 'Moved to ../console', {
            contentType: 'text/plain; charset=utf-8',
            headers: { ...consoleSecurityHeaders, Location: '../console' },
          });
        }
        const session = await parts.pageSession?.(context.headers);
        if (!session) return textAnswer(page, 'text/html; charset=utf-8');
        return operationResponse(200, consolePage(assets, options.Title, session), {
          contentType: 'text/html; charset=utf-8',
          headers: securityHeadersWithForms(),
        });
      },
    }),
    defineOperation({
      id: 'console.asset',
      method: 'GET',
      path: `${consolePath}/assets/:file`,
      summary: 'A built console asset (hashed name, cached immutably)',
      tags: ['Console'],
      params: z.object({ file: z.string().min(1).max(200) }),
      result: z.string().describe('JavaScript or CSS'),
      errors: { 'not-found': 'no built asset has this name' },
      servedWhileDraining: true,
      handler: ({ params }, context) => {
        const asset = assets.files.get(params.file);
        if (!asset) {
          throw new OperationError(
            'not-found',
            'CONSOLE_ASSET_NOT_FOUND',
            `No console asset is named ${params.file}`,
          );
        }
        // Precompressed at build time, chosen by Accept-Encoding; Vary tells caches the answer depends on it.
        const encoding = negotiateEncoding(context.headers['accept-encoding'], asset.encoded);
        const headers = { 'Cache-Control': immutableCacheControl, Vary: 'Accept-Encoding' };
        if (!encoding) return textAnswer(asset.text, asset.contentType, headers);
        return operationResponse(200, asset.encoded![encoding]!, {
          contentType: asset.contentType,
          headers: { ...consoleSecurityHeaders, ...headers, 'Content-Encoding': encoding },
        });
      },
    }),
    defineOperation({
      id: 'console.info',
      method: 'GET',
      path: `${consolePath}/info`,
      summary: 'What the console runs with: history retention and the store it lives on',
      tags: ['Console'],
      result: consoleInfoDocumentSchema,
      handler: () => ({
        title: options.Title,
        history: {
          retentionMinutes: options.HistoryRetentionMinutes,
          bucketSeconds: options.HistoryBucketSeconds,
          store: parts.storeTraits(),
        },
      }),
    }),
    defineOperation({
      id: 'console.catalogs',
      method: 'GET',
      path: `${consolePath}/catalogs`,
      summary: 'Every registered catalog with its route, id field, filtered views and entry count',
      tags: ['Console'],
      result: z.array(catalogIndexEntrySchema),
      handler: (_input, context) => catalogIndex(context.engine),
    }),
    defineOperation({
      id: 'console.operator-views',
      method: 'GET',
      path: `${consolePath}/operator-views`,
      summary: 'Every operator view the installed packs declared, with its current rows (at most 200 each)',
      tags: ['Console'],
      result: z.array(operatorViewDocumentSchema),
      handler: (_input, context) => operatorViews(context.engine, context.authorize),
    }),
    defineOperation({
      id: 'console.recent-history',
      method: 'GET',
      path: `${consolePath}/history`,
      summary: 'The latest checks of every dependency (the history strips), in one answer',
      tags: ['Console'],
      query: z.object({
        windowMinutes: z.coerce.number().int().min(1).max(43_200).optional(),
        perDependency: z.coerce.number().int().min(1).max(500).optional(),
      }),
      result: z.object({ dependencies: z.record(z.string(), z.array(historySampleSchema)) }),
      handler: async ({ query }) => ({
        dependencies: await history.recent(
          Math.min(query.windowMinutes ?? 60, options.HistoryRetentionMinutes) * 60_000,
          query.perDependency ?? 30,
        ),
      }),
    }),
    defineOperation({
      id: 'console.dependency-history',
      method: 'GET',
      path: `${consolePath}/history/:dependencyId`,
      summary: 'Check history of one dependency: every sample in the window, availability and latency',
      tags: ['Console'],
      params: z.object({ dependencyId: z.string().min(1).max(200) }),
      query: z.object({
        windowMinutes: z.coerce.number().int().min(1).max(43_200).optional(),
      }),
      result: dependencyHistoryDocumentSchema,
      errors: { 'not-found': 'no dependency has this id' },
      handler: async ({ params, query }, context) => {
        requireDependency(context.engine, params.dependencyId);
        const windowMinutes = Math.min(query.windowMinutes ?? 60, options.HistoryRetentionMinutes);
        const samples = await history.read(params.dependencyId, windowMinutes * 60_000);
        return {
          dependencyId: params.dependencyId,
          windowMinutes,
          retentionMinutes: options.HistoryRetentionMinutes,
          store: parts.storeTraits(),
          summary: summarize(samples),
          samples,
        };
      },
    }),
    defineOperation({
      id: 'console.dependency-states',
      method: 'GET',
      path: `${consolePath}/dependency-states`,
      summary:
        'The state of every dependency and since when (failing since), kept on the store across restarts',
      tags: ['Console'],
      result: z.object({
        dependencies: z.record(z.string(), z.object({ outcome: outcomeSchema, sinceUtc: z.string() })),
      }),
      handler: async () => {
        const states = await transitions.currentStates();
        return {
          dependencies: Object.fromEntries(
            Object.entries(states).map(([id, state]) => [
              id,
              { outcome: state.outcome, sinceUtc: state.sinceUtc },
            ]),
          ),
        };
      },
    }),
    defineOperation({
      id: 'console.dependency-transitions',
      method: 'GET',
      path: `${consolePath}/transitions/:dependencyId`,
      summary:
        'State changes of one dependency (from, to, when), newest first, kept on the store across restarts',
      tags: ['Console'],
      params: z.object({ dependencyId: z.string().min(1).max(200) }),
      query: z.object({ limit: z.coerce.number().int().min(1).max(1000).optional() }),
      result: dependencyTransitionsDocumentSchema,
      errors: { 'not-found': 'no dependency has this id' },
      handler: async ({ params, query }, context) => {
        requireDependency(context.engine, params.dependencyId);
        const current = (await transitions.currentStates())[params.dependencyId];
        const list = await transitions.transitions(params.dependencyId, query.limit ?? 100);
        return {
          dependencyId: params.dependencyId,
          current: current ? { outcome: current.outcome, sinceUtc: current.sinceUtc } : null,
          transitions: list.map(({ dependencyId: _id, ...transition }) => transition),
        };
      },
    }),
    defineOperation({
      id: 'console.runtime-lifecycle',
      method: 'GET',
      path: `${consolePath}/lifecycle`,
      summary:
        'Lifecycle entries of the runtime story of this run and the earlier ones (kept across restarts)',
      tags: ['Console'],
      query: z.object({ limit: z.coerce.number().int().min(1).max(5000).optional() }),
      result: z.object({
        runId: z.string().describe('this process run; entries of other runs are earlier ones'),
        entries: z.array(z.object({ runId: z.string(), entry: runtimeStoryEntrySchema })),
      }),
      handler: async ({ query }) => ({
        runId: lifecycle.runId,
        entries: await lifecycle.read(query.limit ?? 1000),
      }),
    }),
  ];
}
