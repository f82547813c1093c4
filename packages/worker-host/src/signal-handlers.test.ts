import { EventEmitter } from 'node:events';
import { SignalHandlers, shutdownSignals, type ShutdownSignal } from './signal-handlers';

function fakeProcess() {
  const emitter = new EventEmitter();
  return {
    target: emitter as unknown as Pick<NodeJS.Process, 'on' | 'off'>,
    emit: (signal: ShutdownSignal) => emitter.emit(signal),
    count: (signal: ShutdownSignal) => emitter.listenerCount(signal),
  };
}

describe('SignalHandlers', () => {
  it('installs one handler per shutdown signal, once, and removes them all', () => {
    const process = fakeProcess();
    const received: ShutdownSignal[] = [];
    const handlers = new SignalHandlers(true, (signal) => received.push(signal), process.target);
    handlers.install();
    handlers.install();
    expect(shutdownSignals.map((signal) => process.count(signal))).toEqual([1, 1]);
    process.emit('SIGTERM');
    process.emit('SIGINT');
    expect(received).toEqual(['SIGTERM', 'SIGINT']);
    handlers.remove();
    expect(shutdownSignals.map((signal) => process.count(signal))).toEqual([0, 0]);
  });

  it('installs nothing when the host does not handle signals', () => {
    const process = fakeProcess();
    new SignalHandlers(false, () => undefined, process.target).install();
    expect(shutdownSignals.map((signal) => process.count(signal))).toEqual([0, 0]);
  });
});
