/**
 * Blanks out known secret values (the API key) and anything that looks like an
 * `X-API-Key: ...` header from a text before it is logged or shown.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret) out = out.split(secret).join('‹redacted›');
  }
  return out.replace(/(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi, '$1‹redacted›');
}
