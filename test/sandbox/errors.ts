/** An answer other than success; the body is `{ statusCode, message }` (spec §Errors). */
export class ApiError extends Error {
	constructor(
		readonly statusCode: number,
		message: string,
		readonly extra: Record<string, unknown> = {},
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	body(): Record<string, unknown> {
		return { statusCode: this.statusCode, message: this.message, ...this.extra };
	}
}

export const badRequest = (message: string) => new ApiError(400, message);
export const unauthorized = (message: string) =>
	new ApiError(401, message, {}, { 'www-authenticate': 'Bearer' });
export const forbidden = (message: string) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
