import { AsyncLocalStorage, createHook, type AsyncHook } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/*
 * Some drivers have no public way to drop a connection at once: neo4j-driver keeps no timeout on the Bolt
 * handshake and `driver.close()` does not reach a connection still in it; oracledb's thin driver sends a logoff
 * and waits on `close()`, and has no connection object at all while authenticating. Against a server that stops
 * answering, the socket would stay open after the run was aborted, one more every refresh. Drivers offer no
 * socket hook, so the sockets opened during one run are collected here by async context (AsyncLocalStorage)
 * and destroyed when the run is aborted.
 *
 * Plain TCP sockets come from Node's public `net.client.socket` diagnostics channel. `tls.connect` publishes
 * nothing, so for the TLS schemes an async hook records the TLS handle of each connection and its socket is
 * found through the handle's owner; should a Node release change that, the TLS socket is simply not found
 * and closes when the server closes it (the plain path does not depend on it).
 */

type TrackedRun = Set<Socket | object>;

const runs = new AsyncLocalStorage<TrackedRun>();
let subscribed = false;
let tlsHook: AsyncHook | undefined;
let activeTlsRuns = 0;

function onClientSocket(message: unknown): void {
  const socket = (message as { socket?: Socket }).socket;
  if (socket) runs.getStore()?.add(socket);
}

function ownerSocket(handle: object): Socket | undefined {
  const owner = Object.getOwnPropertySymbols(handle).find((symbol) => symbol.description === 'owner_symbol');
  const socket = owner ? (handle as Record<symbol, unknown>)[owner] : undefined;
  return socket && typeof (socket as Socket).destroy === 'function' ? (socket as Socket) : undefined;
}

/** A run's sockets: `destroy()` tears down every one still open. */
export interface TrackedSockets {
  destroy(): void;
}

/**
 * Runs `work` so that every client socket it opens (directly or through a driver) is recorded, and returns
 * its promise plus a handle that destroys those sockets. `tls` enables the TLS handle recording.
 */
export function withTrackedSockets<T>(
  work: () => Promise<T>,
  options: { tls: boolean },
): { result: Promise<T>; sockets: TrackedSockets } {
  if (!subscribed) {
    diagnosticsChannel.subscribe('net.client.socket', onClientSocket);
    subscribed = true;
  }
  if (options.tls) {
    tlsHook ??= createHook({
      init(_id, type, _trigger, resource) {
        if (type === 'TLSWRAP') runs.getStore()?.add(resource as object);
      },
    });
    if (activeTlsRuns++ === 0) tlsHook.enable();
  }
  const tracked: TrackedRun = new Set();
  let released = false;
  const release = () => {
    if (released || !options.tls) return;
    released = true;
    if (--activeTlsRuns === 0) tlsHook?.disable();
  };
  const result = runs.run(tracked, work);
  result.then(release, release);
  return {
    result,
    sockets: {
      destroy() {
        release();
        for (const item of tracked) {
          const socket =
            typeof (item as Socket).destroy === 'function' ? (item as Socket) : ownerSocket(item);
          if (socket && !socket.destroyed) socket.destroy();
        }
        tracked.clear();
      },
    },
  };
}
