import type { RequestPhoto } from '../../shared/schemas/staff-quote-requests';
import type { DbOrTx } from '../db/client';
import type { TokenService } from '../lib/tokens';
import { listImageSummaries } from './repository';

const PURPOSE = 'quote-request-image';
const BUCKET_SECONDS = 600;

/**
 * An <img> cannot send the bearer token, so staff pages get photo addresses signed for one image.
 * The expiry is rounded to a 10-minute step, so the address stays the same between refetches
 * (the browser keeps its cached copy) and lives 10 to 20 minutes.
 */
export async function signedImageUrls(tokens: TokenService, imageId: string) {
  const now = Math.floor(Date.now() / 1000);
  const expiresAt = (Math.floor(now / BUCKET_SECONDS) + 2) * BUCKET_SECONDS;
  const sig = await tokens.signScoped(PURPOSE, imageId, expiresAt - now, { deterministic: true, expiresAt });
  const base = `/api/quoterequest/images/${imageId}`;
  return { url: `${base}?sig=${sig}`, thumbnailUrl: `${base}?size=thumb&sig=${sig}` };
}

export async function verifyImageSignature(
  tokens: TokenService,
  imageId: string,
  sig: string | undefined,
): Promise<boolean> {
  if (!sig) return false;
  const result = await tokens.verifyScoped(PURPOSE, sig);
  return 'subject' in result && result.subject === imageId;
}

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
