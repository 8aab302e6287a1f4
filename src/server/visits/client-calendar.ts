import type { FastifyInstance } from 'fastify';
import { signedLink, verifySignedLink } from '../lib/signed-links';

const PURPOSE = 'client-visit-ics';

/**
 * A visit's "Add to calendar" file on the client's page: an address signed for that one visit,
 * alive 10 to 20 minutes (the page refetches when the client comes back to it).
 */
export const clientVisitCalendarPath = async (app: FastifyInstance, visitId: string) =>
  `/api/client-visits/${encodeURIComponent(visitId)}/calendar.ics?sig=${await signedLink(app.tokens, PURPOSE, visitId)}`;

export const checkClientVisitCalendar = (app: FastifyInstance, visitId: string, sig: string | undefined) =>
  verifySignedLink(app.tokens, PURPOSE, visitId, sig);
