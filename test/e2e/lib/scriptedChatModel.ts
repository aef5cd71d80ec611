/**
 * A chat model the test scripts: an OpenAI-compatible server on loopback (`POST /v1/chat/completions`,
 * `GET /v1/models`) that answers each completion request with the next scripted turn (tool calls, or a
 * final message) and keeps every request, so a test reads the tool results n8n's AI Agent sent back.
 * n8n's OpenAI Chat Model node reaches it through an OpenAI credential whose Base URL ('url') is
 * `server.url`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCRIPTED_MODEL = 'scripted-model';

export interface ScriptedToolCall {
	/** The tool's name as n8n gives it to the model: the tool node's name, other characters as '_'. */
	name: string;
	arguments: Record<string, unknown>;
}

export type ScriptedTurn = { toolCalls: ScriptedToolCall[] } | { content: string };

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_call_id?: string;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

export interface ChatRequest {
	model?: string;
	stream?: boolean;
	messages: ChatMessage[];
	tools?: Array<{
		type: string;
		function: { name: string; description?: string; parameters?: unknown };
	}>;
}

export interface ScriptedChatModel {
	/** The Base URL for the OpenAI credential (ends in /v1). */
	url: string;
	/** Every completion request, in order. */
	requests: ChatRequest[];
	/** Replaces the script; the next completion request gets the first turn. */
	script(turns: ScriptedTurn[]): void;
	/** The tool calls answered so far, by id. */
	calls: Map<string, ScriptedToolCall>;
	close(): Promise<void>;
}

/** The tool results in `request`: the `tool` messages, as the model reads them, by tool call id. */
export function toolResults(request: ChatRequest): Map<string, string> {
	const results = new Map<string, string>();
	for (const message of request.messages) {
		if (message.role === 'tool' && typeof message.tool_call_id === 'string') {
			results.set(
				message.tool_call_id,
				typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
			);
		}
	}
	return results;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, body: unknown): void {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify(body));
}

export async function startScriptedChatModel(): Promise<ScriptedChatModel> {
	let turns: ScriptedTurn[] = [];
	let callCount = 0;
	const requests: ChatRequest[] = [];
	const calls = new Map<string, ScriptedToolCall>();

	const message = (turn: ScriptedTurn) => {
		if ('content' in turn) return { role: 'assistant', content: turn.content };
		return {
			role: 'assistant',
			content: null,
			tool_calls: turn.toolCalls.map((call) => {
				const id = `call_${++callCount}`;
				calls.set(id, call);
				return {
					id,
					type: 'function',
					function: { name: call.name, arguments: JSON.stringify(call.arguments) },
				};
			}),
		};
	};

	const server = createServer((request, response) => {
		void (async () => {
			const path = (request.url ?? '').split('?')[0].replace(/\/+$/, '');
			if (request.method === 'GET' && path === '/v1/models') {
				json(response, 200, {
					object: 'list',
					data: [{ id: SCRIPTED_MODEL, object: 'model', owned_by: 'test' }],
				});
				return;
			}
			if (request.method !== 'POST' || path !== '/v1/chat/completions') {
				json(response, 404, { error: { message: `no route ${request.method} ${path}` } });
				return;
			}
			const body = JSON.parse(await bodyOf(request)) as ChatRequest;
			requests.push(body);
			const turn = turns.shift() ?? { content: 'The script has no more turns.' };
			const answer = message(turn);
			const finish = 'content' in turn ? 'stop' : 'tool_calls';
			const base = {
				id: `chatcmpl-${requests.length}`,
				created: Math.floor(Date.now() / 1000),
				model: body.model ?? SCRIPTED_MODEL,
			};
			const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
			if (body.stream === true) {
				response.writeHead(200, { 'content-type': 'text/event-stream' });
				const delta = {
					...answer,
					...(answer.tool_calls && {
						tool_calls: answer.tool_calls.map((call, index) => ({ index, ...call })),
					}),
				};
				const chunk = (choice: unknown, extra: object = {}) =>
					response.write(
						`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [choice], ...extra })}\n\n`,
					);
				chunk({ index: 0, delta, finish_reason: null });
				chunk({ index: 0, delta: {}, finish_reason: finish }, { usage });
				response.end('data: [DONE]\n\n');
				return;
			}
			json(response, 200, {
				...base,
				object: 'chat.completion',
				choices: [{ index: 0, message: answer, finish_reason: finish }],
				usage,
			});
		})().catch((error: unknown) => json(response, 500, { error: { message: String(error) } }));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		calls,
		script(next) {
			turns = [...next];
		},
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
