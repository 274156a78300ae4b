const FENCE = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/g

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** Yields every balanced `{...}` / `[...]` span of `text`, outermost first, skipping string contents. */
function* balancedSpans(text: string): Generator<string> {
  for (let start = 0; start < text.length; start++) {
    const open = text[start]
    if (open !== '{' && open !== '[') continue
    const stack: string[] = []
    let inString = false
    for (let i = start; i < text.length; i++) {
      const ch = text[i]
      if (inString) {
        if (ch === '\\') i++
        else if (ch === '"') inString = false
        continue
      }
      if (ch === '"') inString = true
      else if (ch === '{' || ch === '[') stack.push(ch === '{' ? '}' : ']')
      else if (ch === '}' || ch === ']') {
        if (stack.pop() !== ch) break
        if (stack.length === 0) {
          yield text.slice(start, i + 1)
          start = i
          break
        }
      }
    }
  }
}

/**
 * Finds the JSON value in a model answer: the whole text, a fenced code block, or the first balanced JSON
 * object/array surrounded by chatter. Returns `undefined` when there is none.
 */
export function extractJson(text: string): unknown {
  const trimmed = text.trim()
  if (trimmed === '') return undefined
  const whole = tryParse(trimmed)
  if (whole !== undefined && typeof whole === 'object') return whole
  for (const m of trimmed.matchAll(FENCE)) {
    const inner = tryParse((m[1] ?? '').trim())
    if (inner !== undefined && typeof inner === 'object') return inner
  }
  for (const span of balancedSpans(trimmed)) {
    const value = tryParse(span)
    if (value !== undefined) return value
  }
  return undefined
}

/** The array under `key` of an object answer, or the answer itself when the model returned a bare array. */
export function _arrayField(value: unknown, key: string): unknown[] | undefined {
  if (Array.isArray(value)) return value
  if (value && typeof value === 'object') {
    const field = (value as Record<string, unknown>)[key]
    if (Array.isArray(field)) return field
  }
  return undefined
}
