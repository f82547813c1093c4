import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Turns the close that follows a `Connection: close` answer into a lingering close, for a request whose body
 * is still arriving (a 413 answered before the upload ended).
 *
 * Node's HTTP server destroys the socket as soon as such an answer is written. Closing a socket with unread
 * bytes makes the kernel reset the connection, and a client that is still writing its body then sees EPIPE
 * or ECONNRESET instead of the answer it was sent. Lingering, the host sends the answer and its end of the
 * connection (FIN), keeps reading and dropping what the client still sends, and closes once the client ends
 * its side, or after `lingerMs` whatever the client does, so a client that never stops costs at most that.
 *
 * It replaces `destroySoon` on this one socket, the method the HTTP server calls after the last answer of a
 * connection; nothing else about the socket changes.
 */
export function lingerBeforeClose(request: IncomingMessage, lingerMs: number): void {
  const socket = request.socket as Socket & { destroySoon?: () => void };
  if (typeof socket.destroySoon !== 'function') return;
  socket.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // The client ended its body (or gave up): nothing is left unread, so the close resets nothing.
    socket.once('end', () => socket.destroy());
    socket.end();
    // What still arrives is the rest of the refused body: read it off so the kernel's buffer never fills.
    socket.resume();
  };
}
