import type { StoreChange, StoreChangeListener } from '@corekit/abstractions';
import { connectedFeedState, StoreChangeListeners, unconnectedFeedState } from './store-change-listeners';

function recorder(): StoreChangeListener & { readonly seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    change: (change: StoreChange) => seen.push(`${change.store}/${change.key}`),
    connected: () => seen.push('connected'),
    disconnected: (reason: string) => seen.push(`disconnected: ${reason}`),
  };
}

const feed = { state: () => unconnectedFeedState('test'), fullReadIntervalMs: 1000 };

describe('StoreChangeListeners', () => {
  it('hands a change only to the listeners of its store, and connection news to every listener', () => {
    const listeners = new StoreChangeListeners();
    const a = recorder();
    const b = recorder();
    listeners.subscribe('a', a, feed);
    listeners.subscribe('b', b, feed);
    listeners.deliver({ store: 'a', key: 'k1', version: 1 });
    listeners.each((listener) => listener.disconnected?.('gone'));
    expect(a.seen).toEqual(['a/k1', 'disconnected: gone']);
    expect(b.seen).toEqual(['disconnected: gone']);
  });

  it('keeps delivering to the others when one listener throws', () => {
    const listeners = new StoreChangeListeners();
    const after = recorder();
    listeners.subscribe(
      'a',
      {
        change: () => {
          throw new Error('mine');
        },
      },
      feed,
    );
    listeners.subscribe('a', after, feed);
    listeners.deliver({ store: 'a', key: 'k', version: null });
    expect(after.seen).toEqual(['a/k']);
  });

  it('tells the feed when the last subscription of every store closed, and not before', () => {
    const listeners = new StoreChangeListeners();
    const lastClosed = jest.fn();
    const first = listeners.subscribe('a', recorder(), { ...feed, lastClosed });
    const second = listeners.subscribe('b', recorder(), { ...feed, lastClosed });
    first.close();
    expect(lastClosed).not.toHaveBeenCalled();
    expect(listeners.empty).toBe(false);
    second.close();
    expect(lastClosed).toHaveBeenCalledTimes(1);
    expect(listeners.empty).toBe(true);
  });

  it('answers the feed state and interval through each subscription', () => {
    const listeners = new StoreChangeListeners();
    const subscription = listeners.subscribe('a', recorder(), feed);
    expect(subscription.state()).toMatchObject({ path: 'test', connected: false, reconnects: 0 });
    expect(subscription.fullReadIntervalMs).toBe(1000);
  });
});

describe('feed states', () => {
  it('counts a reconnect only after a first connection', () => {
    const first = connectedFeedState(unconnectedFeedState('p'), 3);
    expect(first).toMatchObject({ connected: true, reconnects: 0, roundTripMs: 3 });
    const again = connectedFeedState({ ...first, connected: false }, 4);
    expect(again).toMatchObject({ connected: true, reconnects: 1, roundTripMs: 4 });
  });
});
