/**
 * A pass-through in front of the sandbox's API for the Return All comparison with and without
 * read-ahead in one run: both cells go through it (same extra hop); one proxy takes `total` out of
 * every list answer, so Return All cannot know the list's size and reads one page at a time. Bytes are
 * passed on as they are, except the leading `"total":N,` of a `{ total, results }` answer.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListProxy {
	url: string;
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

const PASSED_ON = ['content-type', 'retry-after', 'date', 'location'];

export async function startListProxy(target: string, hideTotal: boolean): Promise<ListProxy> {
	const base = new URL(target);
	const server: Server = createServer((request, response) => {
		void (async () => {
			const body = await bodyOf(request);
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(request.headers)) {
				if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
					headers[name] = value;
			}
			const answer = await fetch(`${base.origin}${request.url ?? '/'}`, {
				method: request.method,
				headers,
				body: body.length > 0 ? body : undefined,
				redirect: 'manual',
			});
			let bytes = Buffer.from(await answer.arrayBuffer());
			if (hideTotal && bytes.subarray(0, 9).toString() === '{"total":') {
				const comma = bytes.indexOf(',');
				bytes = Buffer.concat([Buffer.from('{'), bytes.subarray(comma + 1)]);
			}
			const out: Record<string, string> = { 'content-length': String(bytes.length) };
			for (const name of PASSED_ON) {
				const value = answer.headers.get(name);
				if (value !== null) out[name] = value;
			}
			response.writeHead(answer.status, out);
			response.end(bytes);
		})().catch(() => response.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}${base.pathname.replace(/\/$/, '')}`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
