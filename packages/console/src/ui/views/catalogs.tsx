import type { CatalogIndexEntry } from '../../catalog-index';
import { useEffect, useState } from 'preact/hooks';
import { getJson, relativeEnginePath, shownUrl } from '../api';
import { VirtualList } from '../components/virtual-list';
import { valueText } from '../format';
import { href } from '../router';
import { ViewHeading } from './view-heading';

/** One registered catalog, as `/engine/console/catalogs` lists it. */
export type CatalogSummary = CatalogIndexEntry;

export function useCatalogIndex(): { catalogs: CatalogSummary[] | null; error: string | null } {
  const [catalogs, setCatalogs] = useState<CatalogSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<CatalogSummary[]>('console/catalogs')
      .then(setCatalogs)
      .catch((failure: Error) => setError(failure.message));
  }, []);
  return { catalogs, error };
}

/** Every registered catalog: the engine's and every installed pack's, generically. */
export function CatalogIndexView() {
  const { catalogs, error } = useCatalogIndex();
  return (
    <section aria-labelledby="catalogs-heading">
      <ViewHeading focusKey="catalogs">
        <span id="catalogs-heading">Catalogs</span>
      </ViewHeading>
      {error ? <p class="error-text">{error}</p> : null}
      {catalogs === null ? (
        <p>Loading…</p>
      ) : (
        <ul class="catalog-index">
          {catalogs.map((catalog) => (
            <li key={catalog.id}>
              <a href={href('catalogs', catalog.id)}>{catalog.displayName}</a>{' '}
              <span class="muted">
                {catalog.entryCount} {catalog.entryCount === 1 ? 'entry' : 'entries'} ·{' '}
              </span>
              <a href={relativeEnginePath(catalog.path)}>{shownUrl(relativeEnginePath(catalog.path))}</a>
              {catalog.description ? <p class="muted">{catalog.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function entryId(entry: unknown, idField: string | null, index: number): string {
  if (idField && entry && typeof entry === 'object') {
    const value = (entry as Record<string, unknown>)[idField];
    if (value !== undefined && value !== null) return String(value);
  }
  return `#${index + 1}`;
}

function entryTitle(entry: unknown): string {
  if (!entry || typeof entry !== 'object') return valueText(entry);
  const record = entry as Record<string, unknown>;
  return String(
    record.displayName ??
      record.description ??
      record.latestOutcome ??
      record.state ??
      record.outcome ??
      record.status ??
      '',
  );
}

/** One catalog's entries, filtered and virtualised; each entry links to its JSON route. */
export function CatalogView({
  catalogId,
  selected,
}: {
  readonly catalogId: string;
  readonly selected?: string;
}) {
  const { catalogs, error } = useCatalogIndex();
  const catalog = catalogs?.find((candidate) => candidate.id === catalogId);
  const [entries, setEntries] = useState<unknown[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    if (!catalog) return;
    getJson<unknown[]>(relativeEnginePath(catalog.path))
      .then(setEntries)
      .catch((failure: Error) => setLoadError(failure.message));
  }, [catalog?.path]);
  const needle = filter.trim().toLowerCase();
  const indexed = (entries ?? []).map((entry, index) => ({
    id: entryId(entry, catalog?.idField ?? null, index),
    entry,
    text: JSON.stringify(entry).toLowerCase(),
  }));
  const shown = needle ? indexed.filter((item) => item.text.includes(needle)) : indexed;
  const chosen = selected ? indexed.find((item) => item.id === selected) : undefined;
  const listPath = catalog ? relativeEnginePath(catalog.path) : '';
  return (
    <section aria-labelledby="catalog-heading">
      <p>
        <a href={href('catalogs')} class="back-link">
          ← All catalogs
        </a>
      </p>
      <ViewHeading focusKey={`catalog-${catalogId}-${selected ?? ''}`}>
        <span id="catalog-heading">{catalog?.displayName ?? catalogId}</span>
      </ViewHeading>
      {error || loadError ? <p class="error-text">{error ?? loadError}</p> : null}
      {catalog ? (
        <p class="links">
          JSON: <a href={listPath}>{shownUrl(listPath)}</a>
          {catalog.views.map((view) => (
            <span key={view.segment}>
              {' '}
              · <a href={`${listPath}/${view.segment}`}>{view.segment}</a>
            </span>
          ))}
        </p>
      ) : null}
      {chosen ? (
        <div class="entry-detail">
          <h3>{chosen.id}</h3>
          {catalog?.idField ? (
            <p class="links">
              JSON:{' '}
              <a href={`${listPath}/${encodeURIComponent(chosen.id)}`}>
                {shownUrl(`${listPath}/${encodeURIComponent(chosen.id)}`)}
              </a>
            </p>
          ) : null}
          <pre tabIndex={0}>{JSON.stringify(chosen.entry, null, 2)}</pre>
          <p>
            <a href={href('catalogs', catalogId)}>← Back to the list</a>
          </p>
        </div>
      ) : null}
      <div class="filters">
        <label class="filter">
          Filter entries{' '}
          <input type="search" value={filter} onInput={(event) => setFilter(event.currentTarget.value)} />
        </label>
        <span class="muted" role="status">
          {shown.length} of {indexed.length} entries
        </span>
      </div>
      {entries === null ? (
        <p>Loading…</p>
      ) : (
        <VirtualList
          items={shown}
          rowHeight={36}
          height={540}
          label={`${catalog?.displayName ?? catalogId} entries`}
          itemKey={(item) => item.id}
          renderItem={(item) => (
            <div class="catalog-row">
              <a href={href('catalogs', catalogId, item.id)}>{item.id}</a>
              <span class="muted">{entryTitle(item.entry)}</span>
            </div>
          )}
        />
      )}
    </section>
  );
}
