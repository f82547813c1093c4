import type { OperatorViewDocument } from '../../operator-views';
import { useEffect, useState } from 'preact/hooks';
import { getJson, postJson, relativeEnginePath, shownUrl } from '../api';
import { Countdown } from '../components/countdown';
import { useNow } from '../console-store';
import { timeText, utcText, valueText } from '../format';
import { OperatorViewFormPanel } from './operator-view-form';
import { href } from '../router';
import { ViewHeading } from './view-heading';

type Row = OperatorViewDocument['rows'][number];
type Action = Row['actions'][number];

function useOperatorViews(reload: number): { views: OperatorViewDocument[] | null; error: string | null } {
  const [views, setViews] = useState<OperatorViewDocument[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    getJson<OperatorViewDocument[]>('console/operator-views')
      .then(setViews)
      .catch((failure: Error) => setError(failure.message));
  }, [reload]);
  return { views, error };
}

/** A cell as its column's format says: text, a time (local and UTC), or the time left until a time. */
function Cell({
  value,
  format,
  now,
}: {
  readonly value: Row['cells'][number];
  readonly format: OperatorViewDocument['columnFormats'][number] | undefined;
  readonly now: number;
}) {
  if (format === 'countdown') return <Countdown iso={value} now={now} />;
  if (format === 'time' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    return (
      <time dateTime={value} title={utcText(value)}>
        {timeText(value)}
      </time>
    );
  }
  return <>{valueText(value)}</>;
}

/**
 * One declared operator view: the pack's forms, its columns, its rows, each linked to its JSON route, with the
 * pack's actions.
 */
function OperatorViewTable({
  view,
  onAct,
  onCreated,
}: {
  readonly view: OperatorViewDocument;
  readonly onAct: (action: Action, row: Row) => void;
  readonly onCreated: () => void;
}) {
  const now = useNow();
  const listPath = relativeEnginePath(view.listPath);
  const headingId = `operator-view-${view.id}`;
  const hasActions = view.rows.some((row) => row.actions.length > 0);
  return (
    <section class="operator-view" aria-labelledby={headingId} data-operator-view={view.id}>
      <h3 id={headingId}>
        <a href={href('views', view.id)}>{view.title}</a> ({view.rowCount})
      </h3>
      <p class="muted">
        {view.description} · JSON: <a href={listPath}>{shownUrl(listPath)}</a>
      </p>
      {view.forms.map((form) => (
        <OperatorViewFormPanel key={form.operationId} viewId={view.id} form={form} onDone={onCreated} />
      ))}
      {view.error ? <p class="error-text">Could not read this view: {view.error}</p> : null}
      {!view.error && view.rowCount === 0 && view.hiddenRowCount === 0 ? (
        <p>Nothing needs attention here.</p>
      ) : null}
      {view.hiddenRowCount > 0 ? (
        <p class="muted" data-hidden-rows={view.hiddenRowCount}>
          {view.hiddenRowCount} {view.hiddenRowCount === 1 ? 'row' : 'rows'} hidden: they belong to tenants
          your credentials may not read.
        </p>
      ) : null}
      {view.rows.length > 0 ? (
        <table class="data-table">
          <caption class="visually-hidden">{view.title}</caption>
          <thead>
            <tr>
              <th scope="col">Id</th>
              {view.columns.map((column) => (
                <th scope="col" key={column}>
                  {column}
                </th>
              ))}
              {hasActions ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {view.rows.map((row) => (
              <tr key={row.id} data-row={row.id}>
                <th scope="row">{row.path ? <a href={relativeEnginePath(row.path)}>{row.id}</a> : row.id}</th>
                {row.cells.map((cell, index) => (
                  <td key={view.columns[index]}>
                    <Cell value={cell} format={view.columnFormats[index]} now={now} />
                  </td>
                ))}
                {hasActions ? (
                  <td>
                    {row.actions.map((action) => (
                      <button type="button" key={action.label} onClick={() => onAct(action, row)}>
                        {action.label} <span class="visually-hidden">{row.id}</span>
                      </button>
                    ))}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view.rowCount > view.rows.length ? (
        <p class="muted">
          Showing {view.rows.length} of {view.rowCount}; the rest are in the JSON route.
        </p>
      ) : null}
    </section>
  );
}

/**
 * The operator views the installed packs declared (`builder.addOperatorView`): all of them, or one
 * (`#/views/{id}`). No pack is named here; a new pack's view appears without console code.
 */
export function OperatorViewsView({ selected }: { readonly selected?: string | undefined }) {
  const [reload, setReload] = useState(0);
  const [message, setMessage] = useState('');
  const { views, error } = useOperatorViews(reload);
  const shown = (views ?? []).filter((view) => !selected || view.id === selected);
  const act = async (action: Action, row: Row) => {
    setMessage(`${action.label}: sending for ${row.id}…`);
    try {
      const target = relativeEnginePath(action.path);
      if (action.method === 'GET') await getJson(target);
      else await postJson(target, action.body ?? {});
      setMessage(`${action.label} done for ${row.id}.`);
    } catch (failure) {
      setMessage(
        `${action.label} refused for ${row.id}: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
    }
    setReload((value) => value + 1);
  };
  const title = selected ? (shown[0]?.title ?? selected) : 'Operator views';
  return (
    <section aria-labelledby="operator-views-heading">
      <ViewHeading focusKey={`views/${selected ?? ''}`}>
        <span id="operator-views-heading">{title}</span>
      </ViewHeading>
      {selected ? (
        <p>
          <a href={href('views')}>Every operator view</a>
        </p>
      ) : null}
      <p role="status" class="action-status">
        {message}
      </p>
      {error ? <p class="error-text">{error}</p> : null}
      {views === null && !error ? <p>Loading…</p> : null}
      {views !== null && shown.length === 0 ? (
        <p>
          {selected
            ? `No installed pack declares the view ${selected}.`
            : 'No installed pack declares an operator view.'}
        </p>
      ) : null}
      {shown.map((view) => (
        <OperatorViewTable
          key={view.id}
          view={view}
          onAct={(action, row) => void act(action, row)}
          onCreated={() => setReload((value) => value + 1)}
        />
      ))}
    </section>
  );
}
