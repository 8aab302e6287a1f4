import type { FastifyInstance } from 'fastify';
import { paths } from '#shared/paths';
import { requireClientToken, signedLink, verifySignedLink } from '../lib/signed-links';

const CLIENT = 'client-invoice';
const STAFF_PDF = 'invoice-pdf';
/** A client's invoice link opens it for a year (a receipt links to it too). */
const CLIENT_LINK_SECONDS = 365 * 86_400;

/** The client's invoice page: path and signed token (the deposit's, linked from the page after accepting). */
export async function clientInvoicePath(app: FastifyInstance, invoiceId: string): Promise<string> {
  const token = await app.tokens.signScoped(CLIENT, invoiceId, CLIENT_LINK_SECONDS);
  return paths.clientInvoice(invoiceId, token);
}

/**
 * The client's invoice page, its PDF and where Pay starts its checkout (decision 035), signed by one
 * token: the client's own page and the page after accepting a quote link them.
 */
export async function clientInvoicePaths(
  app: FastifyInstance,
  invoiceId: string,
): Promise<{ page: string; pdf: string; checkout: string }> {
  const token = await app.tokens.signScoped(CLIENT, invoiceId, CLIENT_LINK_SECONDS);
  const api = (rest: string) =>
    `/api/client-invoices/${encodeURIComponent(invoiceId)}${rest}?token=${encodeURIComponent(token)}`;
  return { page: paths.clientInvoice(invoiceId, token), pdf: api('/pdf'), checkout: api('/checkout') };
}

export async function clientInvoiceLink(app: FastifyInstance, invoiceId: string): Promise<string> {
  return `${app.config.PUBLIC_URL}${await clientInvoicePath(app, invoiceId)}`;
}

/** Throws unless the token opens this invoice (410 expired, 403 otherwise). */
export const checkClientInvoiceLink = (app: FastifyInstance, invoiceId: string, token: string | undefined) =>
  requireClientToken(app.tokens, CLIENT, invoiceId, token);

/** The PDF's address for staff pages (a download cannot send the bearer token). */
export const staffPdfLink = async (app: FastifyInstance, invoiceId: string) =>
  `/api/invoices/${invoiceId}/pdf?sig=${await signedLink(app.tokens, STAFF_PDF, invoiceId)}`;

export const checkStaffPdfLink = (app: FastifyInstance, invoiceId: string, sig: string | undefined) =>
  verifySignedLink(app.tokens, STAFF_PDF, invoiceId, sig);
