import { JWT_STORAGE_KEY } from '#shared/constants';
import { paths } from '#shared/paths';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';

/** A failed API call: the HTTP status, the server's message and its stable code (branch on the code). */
export class ApiError extends Error {
  readonly code: ErrorCode | undefined;
  constructor(
    public readonly status: number,
    message: string,
    public readonly body?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
    const code = (body as { code?: unknown } | undefined)?.code;
    this.code =
      typeof code === 'string' && (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : undefined;
  }
}

/** True when `error` is an API answer carrying one of `codes`. */
export function hasErrorCode(error: unknown, ...codes: ErrorCode[]): error is ApiError {
  return error instanceof ApiError && error.code !== undefined && codes.includes(error.code);
}

export const tokenStore = {
  get: () => localStorage.getItem(JWT_STORAGE_KEY),
  set: (token: string) => localStorage.setItem(JWT_STORAGE_KEY, token),
  clear: () => localStorage.removeItem(JWT_STORAGE_KEY),
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

interface RequestOptions {
  body?: unknown;
  /** A file sent as it is, instead of a JSON body (a CSV to import). */
  file?: Blob;
  signal?: AbortSignal;
  /**
   * A signed-in call whose token the server no longer accepts sends the user to /login and back (the
   * default). Off for the calls that handle it themselves: the route guard's check, signing out.
   */
  redirectOn401?: boolean;
  /** The token to send instead of the stored one (signing out sends the token it just forgot). */
  token?: string;
  /** Headers of the call's own (the crew's change id and time). */
  headers?: Record<string, string>;
  /** A visitor's or a client's call (`publicApi`): the stored staff token is not sent. */
  anonymous?: boolean;
}

/**
 * On the server, which renders a client's page with its data (render-page.tsx): how it calls the
 * API, in the same process. The browser uses fetch.
 */
let serverFetch: typeof fetch | undefined;

export function provideServerFetch(fetcher: typeof fetch): void {
  serverFetch = fetcher;
}

/**
 * The one way the web app calls the API, as the raw answer: the stored bearer token, and the one rule
 * for a refused token. `api` reads the answer; the crew's queue classifies it (outbox.ts).
 */
export async function apiResponse(method: Method, path: string, options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.anonymous ? null : (options.token ?? (serverFetch ? null : tokenStore.get()));
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.file) headers['content-type'] = options.file.type || 'text/csv';
  else if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await (serverFetch ?? fetch)(`/api${path}`, {
    method,
    headers,
    body: options.file ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    signal: options.signal,
  });
  // Only a token the server refused sends the user to sign in: a call made without one (a page
  // refreshing its data as the user signs out) must not reload the page over the sign-out.
  if (response.status === 401 && (options.redirectOn401 ?? true) && token) {
    tokenStore.clear();
    window.location.assign(paths.loginFor(`${window.location.pathname}${window.location.search}`, true));
  }
  // Settings came to require two-step sign-in of this account while it was signed in: Your account first.
  if (response.status === 403 && token && window.location.pathname !== paths.admin.account) {
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { code?: string } | null;
    if (body?.code === 'TWO_STEP_SETUP_REQUIRED') window.location.assign(paths.admin.account);
  }
  return response;
}

/** A call of the API: JSON in and out; a failure throws ApiError with the server's message and code. */
export async function api<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const response = await apiResponse(method, path, options);
  if (!response.ok) throw await failureOf(response, response.statusText);
  const text = await response.text();
  return (text ? safeJson(text) : undefined) as T;
}

/**
 * A failed answer as an ApiError: the server's message and code when its body is the API's, else
 * `otherwise` (an answer from a proxy, a page of HTML).
 */
export async function failureOf(response: Response, otherwise: string): Promise<ApiError> {
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  const message = (data as { message?: unknown } | undefined)?.message;
  return new ApiError(response.status, typeof message === 'string' ? message : otherwise, data);
}

/** A visitor's or a client's call (a form, a status lookup, a link's page): no staff token, no sign-in redirect. */
export function publicApi<T>(method: Method, path: string, options: Omit<RequestOptions, 'token' | 'anonymous'> = {}) {
  return api<T>(method, path, { ...options, anonymous: true, redirectOn401: false });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
