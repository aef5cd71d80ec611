/**
 * A bank for the `n8n execute` Return All comparison (issue 41): it answers one account's transaction
 * list from pages serialised once, so that what is measured is n8n and the nodes, not the bank. Its
 * records have the eight fields issue 41 measured with (xtid, xaid, amount, status, direction,
 * reference, currency, createdDate), amounts whole and with cents as a bank sends them; the answer is
 * `{ total, results }` (spec §Pagination: `page` from 0, `limit` at most 500). Every other request (the
 * token exchange) is passed on to the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordBank {
	url: string;
	/** Sets the list of `xaid` to `count` transactions (new records). */
	seed(xaid: string, count: number): void;
	/** List pages answered since the last call. */
	takePagesServed(): number;
	close(): Promise<void>;
}

function bodyOf(request: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => resolve(Buffer.concat(chunks)));
		request.on('error', reject);
	});
}

function recordsOf(xaid: string, count: number): string[] {
	const start = Date.UTC(2026, 0, 1);
	return Array.from({ length: count }, (_, i) =>
		JSON.stringify({
			xtid: randomUUID(),
			xaid,
			amount: i % 5 === 0 ? 10 + (i % 990) : (1000 + (i % 99_000)) / 100,
			status: i % 7 === 0 ? 'sent' : 'settled',
			direction: i % 3 === 0 ? 'outgoing' : 'incoming',
			reference: `Invoice ${100_000 + i}`,
			currency: 'GBP',
			createdDate: new Date(start + i * 61_000).toISOString(),
		}),
	);
}

export async function startRecordBank(sandboxUrl: string): Promise<RecordBank> {
	const sandbox = new URL(sandboxUrl);
	const lists = new Map<string, { records: string[]; pages: Map<string, Buffer> }>();
	let pagesServed = 0;
	const listPath = /\/account\/([^/]+)\/transactions$/;

	const server: Server = createServer((request, response) => {
		void (async () => {
			const url = new URL(request.url ?? '/', 'http://bank');
			const list = lists.get(listPath.exec(url.pathname)?.[1] ?? '');
			if (request.method === 'GET' && list) {
				const page = Number(url.searchParams.get('page') ?? 0);
				const limit = Math.min(500, Number(url.searchParams.get('limit') ?? 500));
				const key = `${page}/${limit}`;
				let bytes = list.pages.get(key);
				if (!bytes) {
					const results = list.records.slice(page * limit, (page + 1) * limit);
					bytes = Buffer.from(`{"total":${list.records.length},"results":[${results.join(',')}]}`);
					list.pages.set(key, bytes);
				}
				pagesServed++;
				response.writeHead(200, {
					'content-type': 'application/json',
					'content-length': String(bytes.length),
				});
				response.end(bytes);
				return;
			}
			const body = await bodyOf(request);
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(request.headers))
				if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
					headers[name] = value;
			const answer = await fetch(`${sandbox.origin}${request.url ?? '/'}`, {
				method: request.method,
				headers,
				body: body.length > 0 ? body : undefined,
				redirect: 'manual',
			});
			const bytes = Buffer.from(await answer.arrayBuffer());
			const type = answer.headers.get('content-type');
			response.writeHead(answer.status, {
				'content-length': String(bytes.length),
				...(type && { 'content-type': type }),
			});
			response.end(bytes);
		})().catch(() => response.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${sandbox.pathname.replace(/\/$/, '')}`,
		seed: (xaid, count) => lists.set(xaid, { records: recordsOf(xaid, count), pages: new Map() }),
		takePagesServed: () => {
			const served = pagesServed;
			pagesServed = 0;
			return served;
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
