import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

const optionsOf = (property: INodeProperties) =>
	(property.options ?? []).filter(
		(option): option is INodePropertyOptions => 'value' in option && 'name' in option,
	);

/**
 * The canvas subtitle, "Submit Batch: Payment": the names the form shows for the operation and the
 * resource, not their stored values ("submitBatch: payment"). n8n evaluates a subtitle as an
 * expression over the node's parameters, so the names are looked up in a table built from the
 * Resource and Operation options (as n8n's JWT node names its operations in its subtitle); a pair
 * the table lacks shows the values, as n8n's own nodes do.
 */
export function subtitleExpression(properties: INodeProperties[]): `={{${string}}}` {
	const resources = properties.filter((property) => property.name === 'resource');
	const names: Record<string, string> = {};
	for (const { value, name: resourceName } of resources.flatMap(optionsOf)) {
		const operations = properties.filter(
			(property) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource ?? []).includes(value),
		);
		for (const operation of operations.flatMap(optionsOf))
			names[`${String(value)}:${String(operation.value)}`] = `${operation.name}: ${resourceName}`;
	}
	const key = '$parameter["resource"] + ":" + $parameter["operation"]';
	const values = '$parameter["operation"] + ": " + $parameter["resource"]';
	// JSON.stringify never writes "}}", which would end the expression early
	return `={{ (${JSON.stringify(names)})[${key}] || ${values} }}`;
}
