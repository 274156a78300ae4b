/** `--query '{...}'` / `--dream '{...}'`: a JSON object of overrides, or undefined when not given. */
export function parseJsonOption(name: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw new Error(`--${name} must be a JSON object (got ${text})`)
}
