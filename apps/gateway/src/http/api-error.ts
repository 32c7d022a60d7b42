/** An error the gateway's edge answers itself, with its HTTP status and extra headers (Retry-After ...). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const INVALID_API_KEY = 'Invalid or missing API key';
export const INVALID_ADMIN_TOKEN = 'Invalid or missing admin token';
