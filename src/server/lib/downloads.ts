import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';

/**
 * How a download (a CSV, everything.json) is compressed: at the fastest levels, declared on each
 * download's route (`compress: downloadCompression`). At the default levels (brotli 4, gzip 6) brotli
 * held a 2 MB CSV back until its end (first byte 0.4–0.6 s instead of 7 ms) and compressing
 * everything.json's photos, JPEG bytes no level shrinks, was the slowest part of its download
 * (decision 028, session 35). Text still shrinks to about a tenth.
 */
export const downloadCompression = {
  zlibOptions: { level: 1 },
  brotliOptions: {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
    },
  },
};

/**
 * Ends a download whose reader has taken nothing for `seconds` (the socket idle: a paused download's
 * connection accepts no more bytes), so that what it holds (a database connection streaming a table, a
 * place among the downloads at once) is given back. Only while this response lasts: the connection's own
 * keep-alive timing follows it.
 */
export function endWhenIdle(reply: FastifyReply, seconds: number): void {
  reply.raw.setTimeout(seconds * 1000, () => {
    reply.log.info({ idleSeconds: seconds }, 'a download read nothing for too long: ended');
    reply.raw.destroy();
  });
}
