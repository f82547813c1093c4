import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson, relativeEnginePath, shownUrl } from '../api';
import { href } from '../router';
import { useCatalogIndex, type CatalogSummary } from './catalogs';
import { ViewHeading } from './view-heading';

type View = CatalogSummary['views'][number];
type Action = View['actions'][number];

function fillPath(action: Action, entry: Record<string, unknown>): string {
  return relativeEnginePath(
    action.path.replace(/:([A-Za-z_]\w*)/g, (_match, name: string) =>
      encodeURIComponent(String(entry[action.params[name] ?? name] ?? '')),
    ),
  );
}

function entryKey(catalog: CatalogSummary, entry: Record<string, unknown>, index: number): string {
  return catalog.idField && entry[catalog.idField] !== undefined
    ? String(entry[catalog.idField])
    : `#${index + 1}`;
}

/** One attention view of one catalog: its entries, each with the pack's actions. */
function AttentionList({ catalog, view }: { readonly catalog: CatalogSummary; readonly view: View }) {
  const path = `${relativeEnginePath(catalog.path)}/${view.segment}`;
  const [entries, setEntries] = useState<Record<string, unknown>[] | null>(null);
  const [message, setMessage] = useState('');
  const [reload, setReload] = useState(0);
  useEffect(() => {
    getJson<Record<string, unknown>[]>(path)
      .then(setEntries)
      .catch((error: Error) => setMessage(error.message));
  }, [path, reload]);
  const act = async (action: Action, entry: Record<string, unknown>, key: string) => {
    setMessage(`${action.label}: sending for ${key}…`);
    try {
      const target = fillPath(action, entry);
      if (action.method === 'GET') await getJson(target);
      else await postJson(target, action.body ?? {});
      setMessage(`${action.label} done for ${key}.`);
    } catch (error) {
      setMessage(
        `${action.label} refused for ${key}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    setReload((value) => value + 1);
  };
  return (
    <section class="attention" aria-labelledby={`attention-${catalog.id}-${view.segment}`}>
      <h3 id={`attention-${catalog.id}-${view.segment}`}>
        {catalog.displayName}: {view.segment} ({entries?.length ?? '…'})
      </h3>
      <p class="muted">
        {view.description} · JSON: <a href={path}>{shownUrl(path)}</a>
      </p>
      <p role="status" class="action-status">
        {message}
      </p>
      {entries && entries.length === 0 ? <p>Nothing here.</p> : null}
      <ul class="attention-list">
        {(entries ?? []).slice(0, 200).map((entry, index) => {
          const key = entryKey(catalog, entry, index);
          return (
            <li key={key} data-entry={key}>
              <a href={href('catalogs', catalog.id, key)}>{key}</a>{' '}
              <span class="muted">
                {String(entry.toolId ?? entry.displayName ?? entry.latestOutcome ?? entry.lastOutcome ?? '')}
              </span>{' '}
              {view.actions.map((action) => (
                <button type="button" key={action.label} onClick={() => void act(action, entry, key)}>
                  {action.label} <span class="visually-hidden">{key}</span>
                </button>
              ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * What wants an operator, from every installed pack: each catalog view a pack flagged `attention` (runs awaiting
 * approval, terminal dispatch failures...), with the pack's own actions. No pack is named here.
 */
export function AttentionView() {
  const { catalogs, error } = useCatalogIndex();
  const views = (catalogs ?? []).flatMap((catalog) =>
    catalog.views.filter((view) => view.attention).map((view) => ({ catalog, view })),
  );
  return (
    <section aria-labelledby="attention-heading">
      <ViewHeading focusKey="attention">
        <span id="attention-heading">Needs attention</span>
      </ViewHeading>
      {error ? <p class="error-text">{error}</p> : null}
      {catalogs === null ? <p>Loading…</p> : null}
      {catalogs !== null && views.length === 0 ? (
        <p>No installed pack declares a view that needs attention.</p>
      ) : null}
      {views.map(({ catalog, view }) => (
        <AttentionList key={`${catalog.id}/${view.segment}`} catalog={catalog} view={view} />
      ))}
    </section>
  );
}
