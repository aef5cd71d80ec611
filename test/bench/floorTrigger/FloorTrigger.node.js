'use strict';
/**
 * Benchmark only (`npm run bench`, the floor cells): a community-package webhook trigger that does the
 * least any such trigger can do, with no credential, no signature check and no expression, so n8n's
 * own per-call cost for a community trigger is all that is left. Three ways in, each adding one thing
 * the Customer Banking Trigger does:
 * - `webhook`: answers as soon as n8n has read the request, and emits the body (the floor);
 * - `when-done`: answers when the execution has ended, as a trigger with back-pressure must;
 * - `remembering`: the same, and keeps the last 500 delivery ids with their time in the node's static
 *   data (one string, as the Customer Banking Trigger keeps them to recognise a delivery again after a
 *   restart), which n8n then saves on every call.
 * Plain JavaScript, so the bench packs it without a build.
 */
Object.defineProperty(exports, '__esModule', { value: true });
exports.FloorTrigger = void 0;

const REMEMBERED = 500;

class FloorTrigger {
	constructor() {
		const answeringAtEnd = { responseMode: 'lastNode', responseData: 'noData' };
		this.description = {
			displayName: 'Bench Floor Trigger',
			name: 'floorTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Emits the body of each call (benchmark floor)',
			defaults: { name: 'Bench Floor Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' },
				{ name: 'default', httpMethod: 'POST', ...answeringAtEnd, path: 'when-done' },
				{ name: 'default', httpMethod: 'POST', ...answeringAtEnd, path: 'remembering' },
			],
			properties: [],
		};
	}

	async webhook() {
		const body = this.getBodyData();
		if (this.getRequestObject().path.endsWith('/remembering')) {
			const staticData = this.getWorkflowStaticData('node');
			const recent = typeof staticData.recent === 'string' ? staticData.recent.split(',') : [];
			recent.push(`${String(body.deliveryId)} ${Math.floor(Date.now() / 1000)}`);
			staticData.recent = recent.slice(-REMEMBERED).join(',');
			// n8n 2.41.1 clears the changed mark when it starts the run: written again once it has
			// started, so n8n saves it (as the Customer Banking Trigger does, admission.ts handOver)
			setTimeout(() => {
				staticData.recent = `${staticData.recent}`;
			}, 0);
		}
		return { workflowData: [[{ json: body }]] };
	}
}
exports.FloorTrigger = FloorTrigger;
