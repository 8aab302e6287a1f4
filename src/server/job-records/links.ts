import { signedLink, verifySignedLink } from '../lib/signed-links';
import type { TokenService } from '../lib/tokens';

/** What each signed address opens: a job photo, a job's signature, a job's report. */
export const PURPOSES = { photo: 'job-photo', signature: 'job-signature', report: 'job-report' } as const;
export type RecordFile = keyof typeof PURPOSES;

/** Addresses of the record's files for staff pages (an <img> or a download cannot send the token). */
export function recordLinks(tokens: TokenService) {
  return {
    async photo(photoId: string) {
      const sig = await signedLink(tokens, PURPOSES.photo, photoId);
      const base = `/api/job-photos/${photoId}`;
      return { url: `${base}?sig=${sig}`, thumbnailUrl: `${base}?size=thumb&sig=${sig}` };
    },
    signature: async (jobId: string) =>
      `/api/jobs/${jobId}/signature.png?sig=${await signedLink(tokens, PURPOSES.signature, jobId)}`,
    report: async (jobId: string) =>
      `/api/jobs/${jobId}/report.pdf?sig=${await signedLink(tokens, PURPOSES.report, jobId)}`,
  };
}

export const verifyRecordLink = (tokens: TokenService, file: RecordFile, subject: string, sig: string | undefined) =>
  verifySignedLink(tokens, PURPOSES[file], subject, sig);
