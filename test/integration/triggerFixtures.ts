/**
 * Shared by the Customer Banking Trigger integration suites: a local node:http receiver that captures
 * the sandbox's webhook deliveries byte for byte, and hook/webhook contexts for the trigger node.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { createHookContext, createWebhookContext } from '../helpers/n8nContext';
import type { HookContextOptions, StaticData, WebhookContextOptions } from '../helpers/n8nContext';

export const trigger = new CustomerBankingTrigger();
export const hooks = trigger.webhookMethods.default;

export interface CapturedDelivery {
	/** Header names lower-case, as Node gives them (and as n8n's getHeaderData does). */
	headers: Record<string, string>;
	/** The exact bytes received. */
	rawBody: Buffer;
	path: string;
}

export interface ReceiverAnswer {
	status: number;
	body?: string;
}

export interface Receiver {
	/** Base URL; subscriptions point at `${url}/<anything>`. */
	url: string;
	captured: CapturedDelivery[];
	/** Decides the answer to each delivery (default: 200). */
	answer: (delivery: CapturedDelivery) => Promise<ReceiverAnswer>;
	close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
	const receiver: Receiver = {
		url: '',
		captured: [],
		answer: async () => ({ status: 200 }),
		close: async () => undefined,
	};
	const server = http.createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(request.headers)) {
				if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
			}
			const delivery: CapturedDelivery = { headers, rawBody: Buffer.concat(chunks), path: request.url ?? '' };
			receiver.captured.push(delivery);
			receiver
				.answer(delivery)
				.then(({ status, body }) => response.writeHead(status).end(body ?? ''))
				.catch(() => response.writeHead(500).end());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	receiver.url = `http://127.0.0.1:${port}`;
	receiver.close = async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return receiver;
}

export interface TriggerParameters extends IDataObject {
	accounts: string[];
	events: string[];
}

export function newStaticData(): StaticData {
	return { node: {}, global: {} };
}

export function hookContext(
	credentials: ICredentialDataDecryptedObject,
	parameters: TriggerParameters,
	options: Partial<HookContextOptions> = {},
) {
	return createHookContext({
		credentials,
		parameters,
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-node-1' },
		workflowId: 'workflow-42',
		...options,
	});
}

export function webhookContext(
	credentials: ICredentialDataDecryptedObject,
	parameters: IDataObject,
	delivery: CapturedDelivery,
	options: Partial<WebhookContextOptions> = {},
) {
	return createWebhookContext({
		credentials,
		parameters,
		nodeType: trigger,
		node: { name: 'Customer Banking Trigger', id: 'trigger-node-1' },
		workflowId: 'workflow-42',
		body: delivery.rawBody,
		headers: delivery.headers,
		...options,
	});
}
