import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './account/Account.resource';
import * as approval from './approval/Approval.resource';
import * as payee from './payee/Payee.resource';
import * as payment from './payment/Payment.resource';
import * as transaction from './transaction/Transaction.resource';
import type { OutputSwitch } from './types';

/** Every resource of the node, in the order the node lists them. */
export const resources = { account, approval, payee, payment, transaction };

export type ResourceName = keyof typeof resources;

function outputSwitchesOf(resource: object): readonly OutputSwitch[] {
	return 'outputSwitches' in resource ? (resource.outputSwitches as readonly OutputSwitch[]) : [];
}

/** The resources' output switches, by resource, each resource's in the order they take precedence. */
export function outputSwitches(): Array<[ResourceName, OutputSwitch]> {
	return (Object.keys(resources) as ResourceName[]).flatMap((name) =>
		outputSwitchesOf(resources[name]).map(
			(outputSwitch) => [name, outputSwitch] as [ResourceName, OutputSwitch],
		),
	);
}

/** The switches of `resource`, the first one on wins. */
export function outputSwitchesFor(resource: string): OutputSwitch[] {
	return outputSwitches()
		.filter(([name]) => name === resource)
		.map(([, outputSwitch]) => outputSwitch);
}

/**
 * The node's `outputs`: one main output, or those a resource's switch names when it is on. The
 * conditions read only parameters that n8n stores (a resource other than the default one, a switch
 * that is on), so the editor and the execution count the same outputs.
 */
export function outputsExpression(): `={{${string}}}` {
	const main = `"${NodeConnectionTypes.Main}"`;
	const expression = outputSwitches().reduceRight(
		(otherwise, [name, { parameter, displayNames }]) => {
			const outputs = displayNames
				.map((displayName) => `{ type: ${main}, displayName: ${JSON.stringify(displayName)} }`)
				.join(', ');
			return `$parameter.resource === ${JSON.stringify(name)} && $parameter.${parameter} === true ? [${outputs}] : ${otherwise}`;
		},
		`[${main}]`,
	);
	return `={{ ${expression} }}`;
}
