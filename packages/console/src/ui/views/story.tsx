import type { RuntimeStoryEntry } from '@corekit/abstractions';
import { useEffect, useState } from 'preact/hooks';
import { getJson, shownUrl } from '../api';
import { VirtualList } from '../components/virtual-list';
import type { ConsoleState } from '../console-store';
import { timeText } from '../format';
import { ViewHeading } from './view-heading';

interface StoryLine {
  readonly key: string;
  readonly entry: RuntimeStoryEntry;
  /** True for a lifecycle entry of an earlier run of the process (from the console's store). */
  readonly earlier: boolean;
}

/** A routine job run line: started or completed. Failed and abandoned runs are never folded. */
const routineJobRun = (entry: RuntimeStoryEntry) =>
  entry.kind === 'job' && (entry.transition === 'started' || entry.transition === 'completed');

/** The lifecycle entries of earlier runs, kept by the console on the store (this run's are in the story). */
function useEarlierRuns(): readonly StoryLine[] {
  const [lines, setLines] = useState<readonly StoryLine[]>([]);
  useEffect(() => {
    getJson<{ runId: string; entries: Array<{ runId: string; entry: RuntimeStoryEntry }> }>(
      'console/lifecycle',
    )
      .then((document) =>
        setLines(
          document.entries
            .filter((record) => record.runId !== document.runId)
            .map((record) => ({
              key: `${record.runId}-${record.entry.sequence}`,
              entry: record.entry,
              earlier: true,
            })),
        ),
      )
      .catch(() => setLines([]));
  }, []);
  return lines;
}

/**
 * The runtime story as a timeline, newest first, filtered by kind and by text; new entries arrive pushed. The
 * lifecycle entries of earlier runs (kept across restarts) are merged in and marked; routine job runs (started,
 * completed) are folded by default so they do not drown the story.
 */
export function StoryView({ state }: { readonly state: ConsoleState }) {
  const [kind, setKind] = useState('');
  const [text, setText] = useState('');
  const [showJobRuns, setShowJobRuns] = useState(false);
  const earlier = useEarlierRuns();
  const all: StoryLine[] = [
    ...earlier,
    ...state.story.map((entry) => ({ key: `now-${entry.sequence}`, entry, earlier: false })),
  ].sort((a, b) => a.entry.atUtc.localeCompare(b.entry.atUtc));
  const kinds = [...new Set(all.map((line) => line.entry.kind))].sort();
  const folded = all.filter((line) => routineJobRun(line.entry)).length;
  const needle = text.trim().toLowerCase();
  const lines = all
    .filter((line) => showJobRuns || kind === 'job' || !routineJobRun(line.entry))
    .filter((line) => (kind ? line.entry.kind === kind : true))
    .filter((line) =>
      needle
        ? `${line.entry.subjectId ?? ''} ${line.entry.transition} ${line.entry.message}`
            .toLowerCase()
            .includes(needle)
        : true,
    )
    .reverse();
  return (
    <section aria-labelledby="story-heading">
      <ViewHeading focusKey="story">
        <span id="story-heading">Runtime story</span>
      </ViewHeading>
      <p class="links">
        JSON: <a href="runtime-story">{shownUrl('runtime-story')}</a> · earlier runs:{' '}
        <a href="console/lifecycle">{shownUrl('console/lifecycle')}</a>
      </p>
      <div class="filters">
        <label class="filter">
          Kind{' '}
          <select value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
            <option value="">every kind</option>
            {kinds.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label class="filter">
          Text <input type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </label>
        <label class="filter">
          <input
            type="checkbox"
            checked={showJobRuns}
            onChange={(event) => setShowJobRuns(event.currentTarget.checked)}
          />{' '}
          Show routine job runs ({folded} folded)
        </label>
        <span class="muted" role="status" data-story-count>
          {lines.length} of {all.length} entries
          {earlier.length ? ` (${earlier.length} from earlier runs)` : ''}
        </span>
      </div>
      <VirtualList
        items={lines}
        rowHeight={40}
        height={560}
        label="Runtime story entries, newest first"
        itemKey={(line) => line.key}
        renderItem={({ entry, earlier: fromEarlierRun }) => (
          <div class="story-row" data-kind={entry.kind} data-run={fromEarlierRun ? 'earlier' : 'current'}>
            <time dateTime={entry.atUtc}>{timeText(entry.atUtc)}</time>
            <span class="story-kind">
              {entry.kind}
              {fromEarlierRun ? <span class="run-marker"> · earlier run</span> : null}
            </span>
            <span>{entry.subjectId ?? 'runtime'}</span>
            <span class="story-transition">{entry.transition}</span>
            <span class="story-message">{entry.message}</span>
          </div>
        )}
      />
    </section>
  );
}
