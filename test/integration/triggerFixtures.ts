/**
 * Shared by the Customer Banking Trigger integration suites: a local node:http receiver that captures
 * the sandbox's webhook deliveries byte for byte, and hook/webhook contexts for the trigger node.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CustomerBankingTrigger } from '../../nodes/CustomerBankingTrigger/CustomerBankingTrigger.node';
import { createHookContext, createWebhookContext } from '../helpers/n8nContext';
import type { HookContextOptions, StaticData, WebhookContextOptions } from '../helpers/n8nContext';
import type { BankVariants } from '../sandbox/variants';

/** The refusals webhook() reported by throwing, in the order thrown (see `answeredByN8n`). */
export const reportedRefusals: NodeOperationError[] = [];

/** Whether an error thrown by webhook() is the trigger's report of refused deliveries. */
export function isRefusalReport(error: unknown): error is NodeOperationError {
	return (
		error instanceof NodeOperationError &&
		error.message.startsWith('Customer Banking Trigger refused ')
	);
}

/**
 * The trigger as these suites run it: n8n starts the execution of an emitted delivery, which ends at
 * once, and then answers the bank itself (the trigger's response mode 'lastNode'), ending the response.
 * A refusal report thrown by webhook() is answered as n8n answers any error thrown there: 500, and a
 * failed execution that runs nothing after the trigger (shared/n8nInternals.ts 12.); it is recorded in
 * `reportedRefusals`. Any other error is thrown on.
 */
function answeredByN8n(nodeType: CustomerBankingTrigger): CustomerBankingTrigger {
	const webhook = nodeType.webhook;
	nodeType.webhook = async function (this: IWebhookFunctions): Promise<IWebhookResponseData> {
		let result: IWebhookResponseData;
		try {
			result = await webhook.call(this);
		} catch (error) {
			if (!isRefusalReport(error)) throw error;
			reportedRefusals.push(error);
			this.getResponseObject()
				.status(500)
				.json({ message: 'Workflow Webhook Error: Workflow could not be started!' });
			return { noWebhookResponse: true };
		}
		if (result.workflowData !== undefined) this.getResponseObject().end();
		return result;
	};
	return nodeType;
}

export const trigger = answeredByN8n(new CustomerBankingTrigger());
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
			const delivery: CapturedDelivery = {
				headers,
				rawBody: Buffer.concat(chunks),
				path: request.url ?? '',
			};
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

/** The facts a delivery body carries, by the keys of the trigger's "Payload Field Names" (`payloadFields`). */
export type PayloadFact = 'deliveryId' | 'event' | 'account' | 'transaction' | 'occurredAt';

/**
 * Where each bank keeps each fact in a delivery body (spec §Events rule 3: the payload shape is not
 * shown; DECISIONS.md §Variants `webhookPayload`). The sandbox's names are the trigger's defaults.
 */
const PAYLOAD_FIELD_NAMES: Record<
	BankVariants['webhookPayload'],
	Readonly<Record<PayloadFact, string>>
> = {
	sandbox: {
		deliveryId: 'deliveryId',
		event: 'event',
		account: 'xaid',
		transaction: 'xtid',
		occurredAt: 'occurredAt',
	},
	other: {
		deliveryId: 'id',
		event: 'type',
		account: 'accountId',
		transaction: 'transactionId',
		occurredAt: 'createdAt',
	},
};

type PayloadVariant = Pick<BankVariants, 'webhookPayload'>;

/** The field names of the bank's delivery bodies. */
export function payloadFieldNames(variants: PayloadVariant): Readonly<Record<PayloadFact, string>> {
	return PAYLOAD_FIELD_NAMES[variants.webhookPayload];
}

/**
 * The trigger's parameters for this bank: with `payloadFields` naming the bank's fields when they are not
 * the trigger's defaults (a bank of `webhookPayload: 'other'`), as a user sets them; unchanged otherwise.
 * Every test that feeds deliveries to the trigger builds its parameters with this.
 */
export function withPayloadFields<P extends IDataObject>(
	variants: PayloadVariant,
	parameters: P,
): P {
	if (variants.webhookPayload === 'sandbox') return parameters;
	return { ...parameters, payloadFields: { ...payloadFieldNames(variants) } };
}

/** A delivery body read with the bank's field names: its facts by the trigger's keys. */
export function deliveryFacts(
	variants: PayloadVariant,
	delivery: CapturedDelivery | Buffer,
): Record<PayloadFact, unknown> {
	const raw = Buffer.isBuffer(delivery) ? delivery : delivery.rawBody;
	const payload = JSON.parse(raw.toString('utf8')) as IDataObject;
	const names = payloadFieldNames(variants);
	const facts = {} as Record<PayloadFact, unknown>;
	for (const fact of Object.keys(names) as PayloadFact[]) facts[fact] = payload[names[fact]];
	return facts;
}

/**
 * A delivery body as the bank writes it: the facts (by the trigger's keys) under the bank's field
 * names, in the order given; other keys are kept as they are.
 */
export function deliveryBody(
	variants: PayloadVariant,
	facts: Partial<Record<PayloadFact, unknown>> & IDataObject,
): Buffer {
	const names: Readonly<Record<string, string>> = payloadFieldNames(variants);
	const body: IDataObject = {};
	for (const [key, value] of Object.entries(facts))
		body[Object.hasOwn(names, key) ? names[key] : key] = value as IDataObject[string];
	return Buffer.from(JSON.stringify(body));
}
