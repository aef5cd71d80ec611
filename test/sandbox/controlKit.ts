/**
 * What each resource's controls (accounts/control.ts, approvals/control.ts …) are written with: the
 * bank they drive, finding a workspace or a record in any workspace, and reading control requests.
 * control.ts puts the resources' controls together.
 */
import type { IDataObject } from 'n8n-workflow';

import type { TokenService } from './auth';
import type { SandboxControl } from './control';
import { badRequest, notFound } from './errors';
import type { Faults } from './faults';
import type { RequestLogEntry } from './server';
import type { Bank, Workspace } from './state';
import type { WebhookDeliveries } from './webhooks/delivery';

export interface ControlDeps {
	bank: Bank;
	tokens: TokenService;
	faults: Faults;
	deliveries: WebhookDeliveries;
	requestLog: RequestLogEntry[];
	mainWorkspaceId: string;
	/** Restores the seeded state (bank, clients). */
	reseed(): void;
}

export interface ControlRequest {
	params: Record<string, string>;
	query: URLSearchParams;
	body: unknown;
}

export interface ControlRoute {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Relative to /_sandbox. */
	path: string;
	handle(
		request: ControlRequest,
	): Promise<{ status: number; body?: unknown }> | { status: number; body?: unknown };
}

/**
 * One resource's controls: its part of the in-process handle, and the same operations over HTTP
 * under /_sandbox (no auth: loopback only, not part of the spec).
 */
export interface ResourceControls<Name extends keyof SandboxControl> {
	operations: Pick<SandboxControl, Name>;
	routes: ControlRoute[];
}

export interface ControlContext {
	deps: ControlDeps;
	bank: Bank;
	/** The main workspace unless another is named. */
	workspaceById(id?: string): Workspace;
	/** The record `find` finds in any workspace, with its workspace; 404 naming `what` otherwise. */
	locate<T>(
		find: (workspace: Workspace) => T | undefined,
		what: string,
	): { workspace: Workspace; item: T };
}

export function controlContext(deps: ControlDeps): ControlContext {
	const { bank } = deps;
	return {
		deps,
		bank,
		workspaceById(id = deps.mainWorkspaceId) {
			const workspace = bank.workspaces.get(id);
			if (!workspace) throw notFound(`workspace ${id} not found`);
			return workspace;
		},
		locate(find, what) {
			for (const workspace of bank.workspaces.values()) {
				const item = find(workspace);
				if (item !== undefined) return { workspace, item };
			}
			throw notFound(`${what} not found`);
		},
	};
}

export function copy<T>(value: T): T {
	return structuredClone(value);
}

/** The API's views are plain JSON objects; the handle hands them out typed as n8n data. */
export function asData(view: object): IDataObject {
	return view as IDataObject;
}

export function field(body: unknown, name: string): unknown {
	return typeof body === 'object' && body !== null
		? (body as Record<string, unknown>)[name]
		: undefined;
}

export function numberField(body: unknown, name: string): number {
	const value = field(body, name);
	if (typeof value !== 'number') throw badRequest(`${name} must be a number`);
	return value;
}

/** `?workspaceId=` of a control request, when given. */
export function workspaceIdOf(query: URLSearchParams): string | undefined {
	return query.get('workspaceId') ?? undefined;
}

export const ok = (body: unknown = { ok: true }) => ({ status: 200, body });

/** A route's handler that does `action` and answers `{ ok: true }`. */
export function answersOk(action: (request: ControlRequest) => unknown): ControlRoute['handle'] {
	return async (request) => {
		await action(request);
		return ok();
	};
}
