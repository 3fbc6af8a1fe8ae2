/** The replica count typed into the Scale… input box. */

/** The most the sandbox lets a user ask for by hand: enough to watch scheduling run out of room. */
export const MAX_REPLICAS = 1000;

/** The error to show under the input box, or undefined when `text` is a whole number from 0 to MAX_REPLICAS. */
export function validateReplicas(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return 'Enter the number of replicas.';
  if (!/^\d+$/.test(t)) return `"${t}" is not a whole number of replicas (0 or more).`;
  if (Number(t) > MAX_REPLICAS) return `At most ${MAX_REPLICAS} replicas in the sandbox.`;
  return undefined;
}

/** The replica count of valid input (see `validateReplicas`), else undefined. */
export function parseReplicas(text: string): number | undefined {
  return validateReplicas(text) === undefined ? Number(text.trim()) : undefined;
}
