/**
 * "Another host" for the redirect tests: a tiny HTTP server on loopback that records every request
 * reaching it (method, URL, headers, body) and answers each with 200 and a token-like JSON body, so a
 * client that followed a redirect to it would appear to succeed. Tests count what reached it and search
 * it for the canary secrets.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ArrivedRequest {
	method: string;
	url: string;
	headers: http.IncomingHttpHeaders;
	body: string;
}

export interface OtherHost {
	/** `http://127.0.0.1:<port>` */
	origin: string;
	arrived: ArrivedRequest[];
	/** How many times any of `secrets` appears in everything that reached this host (URL, headers, bodies). */
	occurrences(secrets: string[]): number;
	close(): Promise<void>;
}

export async function startOtherHost(): Promise<OtherHost> {
	const arrived: ArrivedRequest[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			arrived.push({
				method: req.method ?? 'GET',
				url: req.url ?? '/',
				headers: req.headers,
				body: Buffer.concat(chunks).toString('utf8'),
			});
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(
				JSON.stringify({
					access_token: 'token-from-the-other-host',
					results: [],
					total: 0,
					ok: true,
				}),
			);
		});
	});
	server.keepAliveTimeout = 1;
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://127.0.0.1:${port}`,
		arrived,
		occurrences: (secrets) => {
			const everything = arrived
				.map((request) => `${request.url}\n${JSON.stringify(request.headers)}\n${request.body}`)
				.join('\n');
			return secrets
				.filter((secret) => secret !== '')
				.reduce((count, secret) => count + everything.split(secret).length - 1, 0);
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
