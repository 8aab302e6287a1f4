import { STATUS_CODES } from 'node:http';
import { codeForStatus, type ErrorCode, type ErrorResponse } from '#shared/schemas/errors';

/** An error body: `{ statusCode, error, message, code }`. */
export function errorBody(
  statusCode: number,
  message: string,
  code: ErrorCode = codeForStatus(statusCode),
): ErrorResponse {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message, code };
}

/** An error the client can fix or should know about; its message is shown as is, its code is stable. */
export class HttpError extends Error {
  readonly code: ErrorCode;
  constructor(
    public readonly statusCode: number,
    message: string,
    code?: ErrorCode,
    /** More for the client beside the message (a 409 WINDOW_TAKEN's fresh windows), in the body as is. */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'HttpError';
    this.code = code ?? codeForStatus(statusCode);
  }
}

export const badRequest = (message: string, code?: ErrorCode) => new HttpError(400, message, code);
export const notFound = (message: string, code?: ErrorCode) => new HttpError(404, message, code);
export const conflict = (message: string, code?: ErrorCode) => new HttpError(409, message, code);
