/**
 * One flat copy of a string built by concatenation. V8 keeps a template literal's result as a tree of cons strings
 * (32 bytes a node on top of the text); a string kept for long — an Event's message, held by the store and the
 * recorder's caches — costs about half as much flat (issue 16: ~165 bytes less per 100-character message).
 * `normalize()` (NFC) answers a flat string; the text is kept unchanged: when normalizing would change it (a
 * decomposed character), the string is returned as it was.
 */
export function flatString(s: string): string {
  if (s.length < 13) return s; // V8 builds shorter concatenations flat already (ConsString::kMinLength)
  const flat = s.normalize();
  return flat === s ? flat : s;
}
