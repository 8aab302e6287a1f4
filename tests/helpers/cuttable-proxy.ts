import net from 'node:net';

/** A TCP proxy on loopback in front of a server (PostgreSQL, Redis) that a test can cut and restore. */
export class CuttableProxy {
  private server: net.Server | undefined;
  private sockets = new Set<net.Socket>();
  constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open() {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await listenOn(this.server, this.port);
  }

  async cut() {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/**
 * Listens on `port`, which a test re-opens after a cut: a refusal (the port taken meanwhile by another
 * file's server or an outgoing connection's own port) is tried again for a while, then fails the test
 * with its reason. Unhandled, it was an 'error' event nobody heard and a promise that never settled:
 * the test hung to its time limit (redis-down, once in a full run, session 35).
 */
async function listenOn(server: net.Server, port: number): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 20) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
