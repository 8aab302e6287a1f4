import type { FastifyInstance } from 'fastify';

/**
 * The client's address is read once, when the request arrives, and kept for the request's life.
 * Fastify's `request.ip` reads the socket at every call, and the socket of a client that went away
 * (a phone that reloads or loses its signal while a write runs) has no address any more: the write's
 * trail entry, a session row or a quote's acceptance would then fail on a missing address and the
 * change would be rolled back although the client had asked for it.
 */
export function pinClientAddress(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    Object.defineProperty(request, 'ip', { value: request.ip ?? '', enumerable: true });
    done();
  });
}
