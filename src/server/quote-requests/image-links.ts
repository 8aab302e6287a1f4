import type { RequestPhoto } from '#shared/schemas/staff-quote-requests';
import type { DbOrTx } from '../db/client';
import { signedLink, verifySignedLink } from '../lib/signed-links';
import type { TokenService } from '../lib/tokens';
import { listImageSummaries } from './repository';

const PURPOSE = 'quote-request-image';

/** A request photo's addresses, signed for staff pages (see `signedLink`). */
export async function signedImageUrls(tokens: TokenService, imageId: string) {
  const sig = await signedLink(tokens, PURPOSE, imageId);
  const base = `/api/quoterequest/images/${imageId}`;
  return { url: `${base}?sig=${sig}`, thumbnailUrl: `${base}?size=thumb&sig=${sig}` };
}

export const verifyImageSignature = (tokens: TokenService, imageId: string, sig: string | undefined) =>
  verifySignedLink(tokens, PURPOSE, imageId, sig);

/** The photos of each of these requests, with signed addresses, by request id. */
export async function requestPhotos(
  db: DbOrTx,
  tokens: TokenService,
  quoteRequestIds: string[],
): Promise<Map<string, RequestPhoto[]>> {
  const byRequest = new Map<string, RequestPhoto[]>();
  for (const i of await listImageSummaries(db, quoteRequestIds)) {
    const list = byRequest.get(i.quoteRequestId) ?? [];
    list.push({ _id: i.id, width: i.width, height: i.height, ...(await signedImageUrls(tokens, i.id)) });
    byRequest.set(i.quoteRequestId, list);
  }
  return byRequest;
}
