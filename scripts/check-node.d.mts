/** Types of check-node.mjs, for its unit test. */
export function requiredMajor(engines: unknown): number
export function nodeVersionProblem(version: string, major: number): string | null
