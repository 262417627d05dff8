import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { GracefulShutdown } from './shutdown.ts';

// Issue 40: SIGTERM drains the process: requests in flight finish, kept-alive connections are
// told to close, new connections are refused, then the app closes and the process exits 0;
// past the deadline it exits 1 anyway.

const log = createLogger('silent');
const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/** A server whose /slow answers after `ms`, anything else at once. */
async function serve(slowMs = 300) {
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const answer = () =>
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '4' }).end('done');
    if (req.url === '/slow') setTimeout(answer, slowMs);
    else answer();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port };
}

/** One HTTP/1.1 request on a socket kept open: the status line and the Connection header. */
function ask(socket: net.Socket, path: string): Promise<{ status: number; connection: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.endsWith('done')) {
        socket.off('data', onData);
        resolve({
          status: Number(text.split(' ')[1]),
          connection: /\r\nconnection: ([^\r]+)/i.exec(text)?.[1] ?? '',
        });
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

const connect = (port: number) =>
  new Promise<net.Socket>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
/** Waits (a busy machine may be slow) until `ready()` holds, for at most 5 s. */
async function until(ready: () => boolean): Promise<void> {
  for (let waited = 0; !ready(); waited += 10) {
    if (waited > 5_000) throw new Error('waited 5 s in vain');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
const closed = (socket: net.Socket) =>
  new Promise<void>((resolve) => {
    if (socket.closed) resolve();
    else socket.once('close', () => resolve());
  });

describe('issue 40: graceful shutdown', () => {
  it('finishes a request in flight, closes kept-alive connections, refuses new ones, exits 0', async () => {
    const { server, port } = await serve();
    const steps: string[] = [];
    let exited: (code: number) => void = () => {};
    const exitCode = new Promise<number>((resolve) => {
      exited = resolve;
    });
    const shutdown = new GracefulShutdown({
      log,
      timeoutMs: 5_000,
      delayMs: 0,
      onBegin: () => steps.push('not ready'),
      close: async () => {
        steps.push(`closed with ${shutdown.inFlight} in flight`);
      },
      exit: exited,
    }).attach(server);

    const idle = await connect(port);
    expect(await ask(idle, '/fast')).toEqual({ status: 200, connection: 'keep-alive' });
    const busy = await connect(port);
    const slow = ask(busy, '/slow');
    await until(() => shutdown.inFlight === 1);

    void shutdown.begin('SIGTERM');
    expect(shutdown.stopping).toBe(true);
    // The idle kept-alive connection is closed; the busy one answers, says close, and closes.
    await closed(idle);
    expect(await slow).toEqual({ status: 200, connection: 'close' });
    await closed(busy);
    await expect(connect(port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await exitCode).toBe(0);
    expect(steps).toEqual(['not ready', 'closed with 0 in flight']);
  });

  it('keeps serving through the delay, each answer saying Connection: close', async () => {
    const { server, port } = await serve();
    let exitCode: number | null = null;
    const shutdown = new GracefulShutdown({
      log,
      timeoutMs: 5_000,
      delayMs: 300,
      close: async () => {},
      exit: (code) => {
        exitCode = code;
      },
    }).attach(server);
    const done = shutdown.begin('SIGTERM');
    const late = await connect(port);
    expect(await ask(late, '/fast')).toEqual({ status: 200, connection: 'close' });
    await closed(late);
    await done;
    expect(exitCode).toBe(0);
  });

  it('exits 1 at the deadline when a request never finishes, and obeys one signal only', async () => {
    const { server, port } = await serve(60_000);
    const codes: number[] = [];
    const shutdown = new GracefulShutdown({
      log,
      timeoutMs: 200,
      delayMs: 0,
      close: async () => {},
      exit: (code) => codes.push(code),
    }).attach(server);
    const stuck = await connect(port);
    void ask(stuck, '/slow').catch(() => undefined);
    await until(() => shutdown.inFlight === 1);
    const first = shutdown.begin('SIGTERM');
    expect(shutdown.begin('SIGINT')).toBe(first);
    await until(() => codes.length > 0);
    expect(codes).toEqual([1]);
    stuck.destroy();
  });
});
