export interface JargonProblem {
	file: string;
	property: string;
	words: string;
	match: string;
	text: string;
}
export function findJargon(description: unknown, file: string): JargonProblem[];
export const RULES: Array<{ words: string; pattern: RegExp }>;
export interface OutputNameProblem {
	where: string;
	property: string;
	name: string;
}
export function findApiOutputNames(
	output: unknown,
	where: string,
	raw?: string[],
): OutputNameProblem[];
