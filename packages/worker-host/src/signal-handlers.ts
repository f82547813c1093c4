/** The signals a host turns into a graceful shutdown. */
export const shutdownSignals = ['SIGTERM', 'SIGINT'] as const;
export type ShutdownSignal = (typeof shutdownSignals)[number];

/**
 * The process signal handlers of a host: installed when it starts (once, and only when enabled), removed when
 * it has stopped, so a stopped host leaves no listener on the process behind.
 */
export class SignalHandlers {
  private readonly installed = new Map<ShutdownSignal, () => void>();

  constructor(
    private readonly enabled: boolean,
    private readonly onSignal: (signal: ShutdownSignal) => void,
    private readonly target: Pick<NodeJS.Process, 'on' | 'off'> = process,
  ) {}

  install(): void {
    if (!this.enabled || this.installed.size > 0) return;
    for (const signal of shutdownSignals) {
      const handler = () => this.onSignal(signal);
      this.installed.set(signal, handler);
      this.target.on(signal, handler);
    }
  }

  remove(): void {
    for (const [signal, handler] of this.installed) this.target.off(signal, handler);
    this.installed.clear();
  }
}
