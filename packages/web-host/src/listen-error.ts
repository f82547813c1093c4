import { CoreError, errorCode } from '@corekit/abstractions';

/** Codes of the errors `listen()` rejects with when the port cannot be bound. */
export const listenErrorCodes = {
  /** EADDRINUSE: another process (or another host in this one) listens on the port. */
  portInUse: 'HOST_PORT_IN_USE',
  /** EACCES: the process may not bind the port (below 1024 without the capability, or a policy). */
  portAccessDenied: 'HOST_PORT_ACCESS_DENIED',
  /** EADDRNOTAVAIL: the bind address is not an address of this machine. */
  addressNotAvailable: 'HOST_ADDRESS_NOT_AVAILABLE',
} as const;

const portKeys = 'PORT or Engine:Web:Port (Engine__Web__Port)';

/**
 * Turns the server's `error` event during `listen()` into a CoreError a person can act on: it names the port,
 * the bind address and the keys that choose them (`PORT`, `Engine:Web:Port`, `Engine:Web:BindAddress`), with a
 * `whatToDo` line the startup report prints. Other errors are returned unchanged. It cannot tell which process
 * holds a port.
 */
export function listenError(error: unknown, port: number, bindAddress?: string): unknown {
  const where = bindAddress ? `${bindAddress}:${port}` : `port ${port}`;
  const details = { port, bindAddress: bindAddress ?? null };
  switch (errorCode(error, '')) {
    case 'EADDRINUSE':
      return new CoreError(
        listenErrorCodes.portInUse,
        `The web host cannot listen on ${where}: another process is already listening there (EADDRINUSE)`,
        {
          ...details,
          problems: [
            `port ${port} is in use; it comes from the port option, ${portKeys} or the default 3000`,
          ],
          whatToDo: `Set ${portKeys} to a free port (0 picks one), or stop the process that listens on ${port}.`,
        },
        { cause: error },
      );
    case 'EACCES':
      return new CoreError(
        listenErrorCodes.portAccessDenied,
        `The web host may not listen on ${where} (EACCES)`,
        {
          ...details,
          problems: [
            `port ${port} needs privileges this process does not have (ports below 1024 usually do)`,
          ],
          whatToDo: `Set ${portKeys} to a port of 1024 or above, or grant the process the right to bind ${port}.`,
        },
        { cause: error },
      );
    case 'EADDRNOTAVAIL':
      return new CoreError(
        listenErrorCodes.addressNotAvailable,
        `The web host cannot listen on ${where}: the address is not one of this machine's (EADDRNOTAVAIL)`,
        {
          ...details,
          problems: [`Engine:Web:BindAddress ${JSON.stringify(bindAddress ?? '')} is not a local address`],
          whatToDo:
            'Set Engine:Web:BindAddress (Engine__Web__BindAddress) to an address of this machine, or remove it to listen on every interface.',
        },
        { cause: error },
      );
    default:
      return error;
  }
}
