import type { JargonProblem } from './jargon.cjs';

/** `property` is the line ("line 12") of the README the word is on. */
export function findReadmeJargon(markdown: string, file: string): JargonProblem[];
