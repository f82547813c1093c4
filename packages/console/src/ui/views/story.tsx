import { useState } from 'preact/hooks';
import { shownUrl } from '../api';
import { VirtualList } from '../components/virtual-list';
import type { ConsoleState } from '../console-store';
import { timeText } from '../format';
import { ViewHeading } from './view-heading';

/** The runtime story as a timeline, newest first, filtered by kind and by text; new entries arrive pushed. */
export function StoryView({ state }: { readonly state: ConsoleState }) {
  const [kind, setKind] = useState('');
  const [text, setText] = useState('');
  const kinds = [...new Set(state.story.map((entry) => entry.kind))].sort();
  const needle = text.trim().toLowerCase();
  const entries = state.story
    .filter((entry) => (kind ? entry.kind === kind : true))
    .filter((entry) =>
      needle
        ? `${entry.subjectId ?? ''} ${entry.transition} ${entry.message}`.toLowerCase().includes(needle)
        : true,
    )
    .slice()
    .reverse();
  return (
    <section aria-labelledby="story-heading">
      <ViewHeading focusKey="story">
        <span id="story-heading">Runtime story</span>
      </ViewHeading>
      <p class="links">
        JSON: <a href="runtime-story">{shownUrl('runtime-story')}</a>
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
        <span class="muted" role="status">
          {entries.length} of {state.story.length} entries
        </span>
      </div>
      <VirtualList
        items={entries}
        rowHeight={40}
        height={560}
        label="Runtime story entries, newest first"
        itemKey={(entry) => String(entry.sequence)}
        renderItem={(entry) => (
          <div class="story-row" data-kind={entry.kind}>
            <time dateTime={entry.atUtc}>{timeText(entry.atUtc)}</time>
            <span class="story-kind">{entry.kind}</span>
            <span>{entry.subjectId ?? 'runtime'}</span>
            <span class="story-transition">{entry.transition}</span>
            <span class="story-message">{entry.message}</span>
          </div>
        )}
      />
    </section>
  );
}
