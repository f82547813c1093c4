import { useEffect, useState } from 'preact/hooks';
import { getJson, shownUrl } from '../api';
import { HistoryStrip } from '../components/history-strip';
import { AvailabilityBand, SampleTable } from '../components/availability-band';
import { LatencyChart } from '../components/latency-chart';
import { TransitionList } from './transition-list';
import { StateBadge } from '../components/state-badge';
import type { ConsoleState, Sample } from '../console-store';
import { shownState, staleAfterMs } from '../dependency-status';
import { durationText, timeText, valueText } from '../format';
import { TimeAgo } from '../components/time-ago';
import { ViewHeading } from './view-heading';

interface HistoryDocument {
  readonly windowMinutes: number;
  readonly retentionMinutes: number;
  readonly store: { readonly kind: string; readonly durable: boolean; readonly shared: boolean } | null;
  readonly summary: {
    readonly checks: number;
    readonly uptimePercent: number | null;
    readonly averageDurationMs: number | null;
    readonly p95DurationMs: number | null;
    readonly outcomes: Readonly<Record<string, number>>;
  };
  readonly samples: readonly Sample[];
}

const windows = [
  { minutes: 15, label: '15 min' },
  { minutes: 60, label: '1 h' },
  { minutes: 360, label: '6 h' },
  { minutes: 1440, label: '24 h' },
  { minutes: 10_080, label: '7 days' },
];

function storeText(store: HistoryDocument['store']): string {
  if (!store) return 'store not known yet';
  return `${store.kind} store, ${store.durable ? 'survives a restart' : 'lost on restart'}${store.shared ? ', shared by replicas' : ''}`;
}

export function DependencyDetailView({
  id,
  state,
  now,
}: {
  readonly id: string;
  readonly state: ConsoleState;
  readonly now: number;
}) {
  const entry = state.dependencies.find((candidate) => candidate.id === id);
  const [windowMinutes, setWindowMinutes] = useState(60);
  const [history, setHistory] = useState<HistoryDocument | null>(null);
  const [historyError, setHistoryError] = useState<string | null>(null);
  const lastChecked = entry?.checkedAtUtc ?? null;
  const historyPath = `console/history/${encodeURIComponent(id)}?windowMinutes=${windowMinutes}`;
  useEffect(() => {
    let current = true;
    getJson<HistoryDocument>(historyPath)
      .then((document) => current && (setHistory(document), setHistoryError(null)))
      .catch((error: Error) => current && setHistoryError(error.message));
    return () => {
      current = false;
    };
    // A new check (pushed) refreshes the history of the shown window.
  }, [historyPath, lastChecked]);

  if (!entry) {
    return (
      <section>
        <ViewHeading focusKey={`dependency-${id}`}>
          <span id="dependency-heading">Dependency {id}</span>
        </ViewHeading>
        <p>{state.dependencies.length === 0 ? 'Loading…' : `No dependency has the id ${id}.`}</p>
      </section>
    );
  }
  const shown = shownState(entry, now, state.connection !== 'lost');
  const dataKeys = Object.keys(entry.data).sort();
  return (
    <section aria-labelledby="dependency-heading" class="dependency-detail">
      <ViewHeading focusKey={`dependency-${id}`}>
        <span id="dependency-heading">{entry.displayName}</span>
      </ViewHeading>
      <p>
        <StateBadge state={shown} />{' '}
        <span class="age">
          {entry.checkedAtUtc ? (
            <TimeAgo iso={entry.checkedAtUtc} now={now} prefix="checked " />
          ) : (
            'not checked yet'
          )}
        </span>
      </p>
      <dl class="facts">
        <dt>Id</dt>
        <dd>{entry.id}</dd>
        <dt>Kind</dt>
        <dd>{entry.kind}</dd>
        <dt>Required</dt>
        <dd>
          {entry.required ? 'yes: failure makes readiness Unhealthy' : 'no: failure only degrades readiness'}
        </dd>
        <dt>Reported status</dt>
        <dd>{entry.status}</dd>
        <dt>Last duration</dt>
        <dd data-fact="duration">{durationText(entry.durationMs)}</dd>
        <dt>Timeout budget</dt>
        <dd data-fact="timeout">{entry.timeoutSeconds} s</dd>
        <dt>Timed out</dt>
        <dd>{entry.timedOut ? 'yes' : 'no'}</dd>
        <dt>Checked at</dt>
        <dd>{timeText(entry.checkedAtUtc)}</dd>
        <dt>Refresh interval</dt>
        <dd>{entry.refreshIntervalSeconds} s</dd>
        <dt>Never shown Healthy after</dt>
        <dd>{Math.round(staleAfterMs(entry) / 1000)} s without a check</dd>
        <dt>Consecutive failures</dt>
        <dd>{entry.consecutiveFailures}</dd>
        <dt>Description</dt>
        <dd>{entry.description ?? '–'}</dd>
        <dt>Error</dt>
        <dd data-fact="error">{entry.error ? `${entry.error.code}: ${entry.error.message}` : 'none'}</dd>
      </dl>
      <h3>Check data</h3>
      {dataKeys.length === 0 ? (
        <p>The check reported no data.</p>
      ) : (
        <table class="data-table">
          <caption class="visually-hidden">Every key the check reported</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {dataKeys.map((key) => (
              <tr key={key}>
                <th scope="row">{key}</th>
                <td>{valueText(entry.data[key])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>State changes</h3>
      <TransitionList id={entry.id} outcome={shown} lastChecked={entry.checkedAtUtc} />
      <h3>History</h3>
      <div role="group" aria-label="History window" class="window-buttons">
        {windows
          .filter((option) => !history || option.minutes <= history.retentionMinutes || option.minutes === 15)
          .map((option) => (
            <button
              type="button"
              key={option.minutes}
              aria-pressed={option.minutes === windowMinutes}
              onClick={() => setWindowMinutes(option.minutes)}
            >
              {option.label}
            </button>
          ))}
      </div>
      {historyError ? <p class="error-text">History unavailable: {historyError}</p> : null}
      {history ? (
        <div>
          <p data-fact="uptime">
            Availability over {history.windowMinutes} min:{' '}
            <strong>
              {history.summary.uptimePercent === null ? 'no checks' : `${history.summary.uptimePercent} %`}
            </strong>{' '}
            of {history.summary.checks} checks · average {durationText(history.summary.averageDurationMs)} ·
            p95 {durationText(history.summary.p95DurationMs)}
          </p>
          <p class="muted">
            History kept {history.retentionMinutes} min on the {storeText(history.store)}.
          </p>
          <HistoryStrip samples={history.samples.slice(-30)} label={`${entry.displayName} recent checks`} />
          <AvailabilityBand
            samples={history.samples}
            label={`${entry.displayName}: availability over ${history.windowMinutes} min`}
          />
          <LatencyChart
            samples={history.samples}
            timeoutMs={entry.timeoutSeconds * 1000}
            label={`${entry.displayName}: check duration over ${history.windowMinutes} min against the ${entry.timeoutSeconds} s timeout`}
          />
          <SampleTable
            samples={history.samples}
            caption={`${entry.displayName}: every check of the last ${history.windowMinutes} min, newest first`}
          />
        </div>
      ) : null}
      <h3>JSON</h3>
      <ul class="links">
        <li>
          <a href="dependencies">{shownUrl('dependencies')}</a> (every dependency)
        </li>
        <li>
          <a href={historyPath}>{shownUrl(historyPath)}</a> (this history)
        </li>
        <li>
          <a href="diagnostics">{shownUrl('diagnostics')}</a>
        </li>
      </ul>
    </section>
  );
}
