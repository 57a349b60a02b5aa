/** The one error type of the server: a status and a message the user may see. */
export class AppError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 429 | 502,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
