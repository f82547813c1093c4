import { useEffect, useState } from 'preact/hooks';
import { getJson, shownUrl } from '../api';
import { outcomeState, stateLabels } from '../dependency-status';
import { timeText, utcText } from '../format';

interface Transition {
  readonly from: string | null;
  readonly to: string;
  readonly atUtc: string;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly description: string | null;
}

const label = (outcome: string | null) =>
  outcome === null ? 'first check' : stateLabels[outcomeState(outcome)];

/**
 * What changed, and when: the dependency's state changes from the console's store (so they survive a restart),
 * newest first, each with its local time and UTC and the error or degraded reason of the check that changed it.
 * Re-read when the shown outcome changes.
 */
export function TransitionList({
  id,
  outcome,
  lastChecked,
}: {
  readonly id: string;
  /** The outcome shown now: a change re-reads the list. */
  readonly outcome: string;
  /** The last check's time: re-reads the list while its newest change is not yet the shown outcome. */
  readonly lastChecked: string | null;
}) {
  const path = `console/transitions/${encodeURIComponent(id)}?limit=50`;
  const [transitions, setTransitions] = useState<readonly Transition[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    getJson<{ transitions: Transition[] }>(path)
      .then((document) => current && (setTransitions(document.transitions), setError(null)))
      .catch((failure: Error) => current && setError(failure.message));
    return () => {
      current = false;
    };
    // The change is written by the host as the check is pushed: until the list shows it, read again per check.
  }, [path, outcome, transitions?.[0]?.to === outcome ? null : lastChecked]);
  if (error) return <p class="error-text">State changes unavailable: {error}</p>;
  if (!transitions) return <p>Loading the state changes…</p>;
  if (transitions.length === 0) return <p>No state change recorded within the retention.</p>;
  return (
    <table class="data-table transitions" data-transitions>
      <caption>
        State changes, newest first (<a href={path}>{shownUrl(path)}</a>)
      </caption>
      <thead>
        <tr>
          <th scope="col">From → to</th>
          <th scope="col">When (local)</th>
          <th scope="col">When (UTC)</th>
          <th scope="col">Error or reason</th>
        </tr>
      </thead>
      <tbody>
        {transitions.map((transition) => (
          <tr key={transition.atUtc} data-transition={`${transition.from ?? 'none'}>${transition.to}`}>
            <th scope="row">
              {label(transition.from)} → {label(transition.to)}
            </th>
            <td>
              <time dateTime={transition.atUtc}>{timeText(transition.atUtc)}</time>
            </td>
            <td>{utcText(transition.atUtc)}</td>
            <td>
              {transition.error
                ? `${transition.error.code}: ${transition.error.message}`
                : transition.to === 'degraded'
                  ? (transition.description ?? '')
                  : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
