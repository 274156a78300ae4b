/** Shows that a secret is set without revealing it: `set (…3f9a)`, or `set` for short values. */
export function maskSecret(value: string | null | undefined): string {
  if (value === undefined || value === null || value === '') return 'not set'
  return value.length >= 16 ? `set (…${value.slice(-4)})` : 'set'
}
