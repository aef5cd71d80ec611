export interface JargonProblem {
	file: string;
	property: string;
	words: string;
	match: string;
	text: string;
}
export function findJargon(description: unknown, file: string): JargonProblem[];
export const RULES: Array<{ words: string; pattern: RegExp }>;
