import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long, and how many bytes of the rest of a body, a connection reads after an answer sent before that body was read. */
export interface BodyLinger {
  ms: number;
  maxBytes: number;
}

/**
 * 5 s and 16 MiB: enough for a client on a slow line to see the answer to a body of a few MB while it still sends,
 * little enough that a client declaring gigabytes holds a connection only briefly.
 */
export const BODY_LINGER: BodyLinger = { ms: 5_000, maxBytes: 16 * 1024 * 1024 };

/**
 * Answers sent before the request's body was read (a 413 on its Content-Length or at its limit, a refused upload, a
 * 401 before parsing) stay readable by the client, as RFC 9112 §9.6 asks and nginx's lingering close does.
 *
 * Node closes a `Connection: close` connection as soon as the answer is written. With the client's body still
 * arriving, the kernel answers it with a reset, which can destroy the answer before the client reads it: the client
 * sees EPIPE instead of the 413. So such a connection closes in stages: our side is half-closed after the answer, the
 * rest of the body is read and dropped, and the connection is closed once the body has ended, the client has gone,
 * or `linger` has run out (its time or its bytes). A keep-alive answer to a body a reader gave up on (raw-body at its
 * limit leaves the request paused) reads the rest the same way, so the connection neither stalls nor is reused
 * mid-body; past `linger` it is closed.
 */
export function lingerAfterEarlyAnswers(server: Server, linger: BodyLinger = BODY_LINGER): void {
  const requests = new WeakMap<Socket, IncomingMessage>();
  server.on('connection', (socket: Socket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = function closeAfterTheBody() {
      const req = requests.get(socket);
      // Half-close only: the answer goes out with our FIN, and the request's 'finish' handler drains the rest.
      if (req && !req.complete && !req.destroyed) socket.end();
      else destroySoon();
    };
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests.set(req.socket, req);
    // Runs after Node's own handler of the answer's end (which asked for the close above).
    res.once('finish', () => {
      if (!req.complete && !req.destroyed) drain(req, req.socket, linger);
    });
  });
}

function drain(req: IncomingMessage, socket: Socket, linger: BodyLinger): void {
  // Counted on the socket: a request Node dumps emits no 'data', its parser drops the bytes.
  const readBefore = socket.bytesRead;
  const stop = () => {
    clearTimeout(timer);
    clearInterval(meter);
  };
  const closeNow = () => {
    stop();
    socket.destroy();
  };
  const timer = setTimeout(closeNow, linger.ms).unref();
  const meter = setInterval(() => socket.bytesRead - readBefore > linger.maxBytes && closeNow(), Math.max(10, Math.min(100, linger.ms / 10))).unref();
  socket.once('close', stop);
  req.once('end', () => {
    stop();
    // Everything the client sent is read: nothing left unread to reset the connection with. A keep-alive one stays.
    if (socket.writableEnded) socket.destroy();
  });
  req.once('error', closeNow);
  req.resume();
}
