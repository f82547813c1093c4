import { useEffect } from 'preact/hooks';
import { consoleStore, useConsoleState, useNow, type ConsoleState } from './console-store';
import { Icon } from './components/icon';
import { TimeAgo } from './components/time-ago';
import { href, useRoute } from './router';
import { AttentionView } from './views/attention';
import { CatalogIndexView, CatalogView } from './views/catalogs';
import { DependencyDialog } from './views/dependency-dialog';
import { InstancesView } from './views/instances';
import { OperatorViewsView } from './views/operator-views';
import { OverviewView } from './views/overview';
import { StoryView } from './views/story';

function ConnectionBanner({ state, now }: { readonly state: ConsoleState; readonly now: number }) {
  if (state.connection === 'lost') {
    const lastContact = state.lastContactMs ? new Date(state.lastContactMs).toISOString() : null;
    return (
      <div class="banner banner-lost" role="alert" data-banner="contact-lost">
        <strong>The host stopped answering</strong>
        {lastContact ? (
          <>
            {' '}
            (last contact <TimeAgo iso={lastContact} now={now} />)
          </>
        ) : null}
        . Everything below is the last state received, marked Stale, and turns Unknown once older than its
        staleness bound. The console reconnects on its own.
      </div>
    );
  }
  if (state.loadError) {
    return (
      <div class="banner banner-lost" role="alert">
        <strong>Could not load the runtime state:</strong> {state.loadError}
      </div>
    );
  }
  return null;
}

const sections = [
  { key: '', label: 'Overview', target: '#/' },
  { key: 'instances', label: 'Instances', target: href('instances') },
  { key: 'story', label: 'Runtime story', target: href('story') },
  { key: 'catalogs', label: 'Catalogs', target: href('catalogs') },
  { key: 'attention', label: 'Needs attention', target: href('attention') },
  { key: 'views', label: 'Operator views', target: href('views') },
];

export function App({ title }: { readonly title: string }) {
  const state = useConsoleState();
  const now = useNow();
  const route = useRoute();
  useEffect(() => {
    consoleStore.connect();
    return () => consoleStore.disconnect();
  }, []);
  const section = route[0] === 'dependencies' ? '' : (route[0] ?? '');
  let view;
  if (route[0] === 'story') view = <StoryView state={state} />;
  else if (route[0] === 'instances') view = <InstancesView state={state} now={now} selected={route[1]} />;
  else if (route[0] === 'catalogs' && route[1])
    view = <CatalogView catalogId={route[1]} selected={route[2]} />;
  else if (route[0] === 'catalogs') view = <CatalogIndexView />;
  else if (route[0] === 'attention') view = <AttentionView />;
  else if (route[0] === 'views') view = <OperatorViewsView selected={route[1]} />;
  else {
    // The overview stays mounted under a dependency's detail (a dialog), so closing it returns to the same list.
    const detail = route[0] === 'dependencies' && route[1] ? route[1] : null;
    view = (
      <>
        <OverviewView state={state} now={now} />
        {detail ? <DependencyDialog id={detail} state={state} now={now} /> : null}
      </>
    );
  }
  return (
    <div class="shell">
      <header class="top">
        <h1>{title}</h1>
        <nav aria-label="Console sections">
          <ul>
            {sections.map((item) => (
              <li key={item.key}>
                <a href={item.target} aria-current={section === item.key ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href=".">Every /engine route (JSON)</a>
            </li>
          </ul>
        </nav>
        <p class="connection" data-connection={state.connection}>
          <Icon
            name={state.connection === 'live' ? 'live' : state.connection === 'lost' ? 'lost' : 'pending'}
          />{' '}
          {state.connection === 'live'
            ? 'Live: updates are pushed'
            : state.connection === 'lost'
              ? 'Disconnected: not current'
              : 'Connecting…'}
        </p>
      </header>
      <ConnectionBanner state={state} now={now} />
      <div class="visually-hidden" aria-live="polite" aria-atomic="true" data-live-region>
        {state.announcement}
      </div>
      <main>{view}</main>
    </div>
  );
}
