'use strict';
/**
 * Benchmark only (`npm run bench`, the floor cell): a community-package webhook trigger that does the
 * least any such trigger can do. It answers as soon as n8n has read the request and emits the body,
 * with no credential, no signature check and no expression, so n8n's own per-call cost for a
 * community trigger is all that is left. Plain JavaScript, so the bench packs it without a build.
 */
Object.defineProperty(exports, '__esModule', { value: true });
exports.FloorTrigger = void 0;

class FloorTrigger {
	constructor() {
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
			],
			properties: [],
		};
	}

	async webhook() {
		return { workflowData: [[{ json: this.getBodyData() }]] };
	}
}
exports.FloorTrigger = FloorTrigger;
