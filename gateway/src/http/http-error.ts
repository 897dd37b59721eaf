/** An error whose status and message are fit for the client; `cause` is for the log only. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HttpError";
  }
}

export const badRequest = (message: string) => new HttpError(400, message);

/** RFC 6750: a missing token gets a bare challenge, a bad one says invalid_token. */
export const unauthorized = (message: string, invalidToken: boolean) =>
  new HttpError(401, message, {
    headers: { "WWW-Authenticate": invalidToken ? 'Bearer error="invalid_token"' : "Bearer" },
  });

export const internalError = (cause: unknown) => new HttpError(500, "internal error", { cause });

export const forbidden = (message: string) => new HttpError(403, message);

export const notFound = (message: string) => new HttpError(404, message);
