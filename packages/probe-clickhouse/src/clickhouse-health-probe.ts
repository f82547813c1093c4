import { createClient, ClickHouseLogLevel } from '@clickhouse/client';
import { abortable, formatHostPort, healthy, unhealthy, type ProbeDefinition } from '@corekit/probe-kit';
import type { DependencyCheckResult } from '@corekit/abstractions';
import {
  clickHouseHealthEntryShape,
  resolveClickHouseTarget,
  validateClickHouseHealthEntry,
  type ClickHouseTarget,
} from './clickhouse-health-options';

const authenticationCodes = new Set([192, 193, 194, 516]); // UNKNOWN_USER, WRONG_PASSWORD, REQUIRED_PASSWORD, AUTHENTICATION_FAILED
const unknownDatabaseCode = 81;
const queryCodes = new Set([46, 47, 60, 62, 164]); // UNKNOWN_FUNCTION, UNKNOWN_IDENTIFIER, UNKNOWN_TABLE, SYNTAX_ERROR, READONLY

function label(target: ClickHouseTarget): string {
  return `${target.protocol}://${formatHostPort(target.host, target.port)}/${target.database}`;
}

/** The server's error number and text, from any ClickHouse version's answer (`Code: 193, ... DB::Exception: Wrong password...`). */
function serverError(error: unknown): { code: number; text: string } | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const codeField = Number((error as { code?: unknown })?.code);
  const match = /Code:\s*(\d+)/.exec(message);
  const code =
    Number.isInteger(codeField) && codeField > 0 ? codeField : match ? Number(match[1]) : undefined;
  if (code === undefined) return undefined;
  const text = (
    /DB::Exception:\s*(.*?)(?:,\s*e\.what\(\)|\s*\(version|$)/s.exec(message)?.[1] ?? message
  ).trim();
  return { code, text };
}

function failure(target: ClickHouseTarget, error: unknown): DependencyCheckResult | undefined {
  const server = serverError(error);
  if (!server) return undefined;
  const detail = `Code ${server.code}: ${server.text}`;
  if (authenticationCodes.has(server.code)) {
    return unhealthy(
      'AUTHENTICATION_FAILED',
      `ClickHouse at ${label(target)} refused the credentials of user ${target.username} (${detail}). Check Username and Password.`,
      { serverErrorCode: server.code },
    );
  }
  if (server.code === unknownDatabaseCode) {
    return unhealthy(
      'UNKNOWN_DATABASE',
      `ClickHouse at ${label(target)} has no database ${target.database} (${detail}). Check Database.`,
      { serverErrorCode: server.code },
    );
  }
  if (queryCodes.has(server.code)) {
    return unhealthy(
      'HEALTH_QUERY_FAILED',
      `The HealthQuery failed on ${label(target)} (${detail}). Check HealthQuery.`,
      { serverErrorCode: server.code },
    );
  }
  return unhealthy('CLICKHOUSE_ERROR', `ClickHouse at ${label(target)} answered an error (${detail}).`, {
    serverErrorCode: server.code,
  });
}

/**
 * The ClickHouse probe: runs HealthQuery through the official client on a dedicated HTTP connection
 * (keep-alive off, one socket, no compression, client logging off), the client closed in `finally`.
 */
export const clickHouseHealthProbe: ProbeDefinition<typeof clickHouseHealthEntryShape> = {
  kind: 'ClickHouse',
  entryShape: clickHouseHealthEntryShape,
  validateEntry: validateClickHouseHealthEntry,
  describeTarget: (entry) => label(resolveClickHouseTarget(entry)),
  secretValues: (entry) => [resolveClickHouseTarget(entry).password].filter((value) => value.length > 0),
  async check(entry, context) {
    const target = resolveClickHouseTarget(entry);
    const client = createClient({
      url: `${target.protocol}://${formatHostPort(target.host, target.port)}`,
      username: target.username,
      password: target.password,
      database: target.database,
      request_timeout: context.timeoutMs,
      max_open_connections: 1,
      keep_alive: { enabled: false },
      compression: { request: false, response: false },
      application: 'corekit-probe',
      log: { level: ClickHouseLogLevel.OFF },
    });
    try {
      const work = (async () => {
        const result = await client.query({
          query: entry.HealthQuery,
          format: 'JSONEachRow',
          abort_signal: context.signal,
        });
        return (await result.json()) as unknown[];
      })();
      const rows = await abortable(work, context.signal, () => void client.close());
      return healthy(`ClickHouse at ${label(target)} answered the health query`, { rowCount: rows.length });
    } catch (error) {
      const result = failure(target, error);
      if (result) return result;
      throw error;
    } finally {
      await client.close();
    }
  },
};
