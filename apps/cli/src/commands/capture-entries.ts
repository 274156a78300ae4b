/** One raw entry of a capture file: the JSON text of a line (JSONL) or of an array item, not parsed yet. */
export type RawEntry =
  | { readonly label: string; readonly text: string }
  | { readonly label: string; readonly problem: string }

/** Longest line or array item read: a file without newlines must not be held whole. */
export const MAX_ENTRY_CHARS = 16 * 1024 * 1024

const TOO_LONG = `longer than ${MAX_ENTRY_CHARS / 1024 / 1024} MiB`

/**
 * Splits a capture file into entries as it streams in: JSONL (one entry a line, blank lines skipped) or, when
 * the first character that is not white space is `[`, the items of one JSON array. Structural problems of
 * the array (text after it, no closing bracket) end the stream with a problem entry.
 */
export async function* captureEntries(chunks: AsyncIterable<string>): AsyncGenerator<RawEntry> {
  const iterator = chunks[Symbol.asyncIterator]()
  let first = await iterator.next()
  while (!first.done && first.value.trimStart() === '') first = await iterator.next()
  if (first.done) return
  const rest = (async function* () {
    yield first.value
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value
  })()
  if (first.value.trimStart().startsWith('[')) yield* arrayItems(rest)
  else yield* jsonLines(rest)
}

async function* jsonLines(chunks: AsyncIterable<string>): AsyncGenerator<RawEntry> {
  let rest = ''
  let lineNumber = 0
  let skipping = false
  for await (const chunk of chunks) {
    let start = 0
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      lineNumber += 1
      const text = rest + chunk.slice(start, end)
      rest = ''
      start = end + 1
      if (skipping) {
        skipping = false
        continue
      }
      const entry = lineEntry(lineNumber, text)
      if (entry) yield entry
    }
    if (skipping) continue
    rest += chunk.slice(start)
    if (rest.length > MAX_ENTRY_CHARS) {
      yield { label: `line ${lineNumber + 1}`, problem: TOO_LONG }
      rest = ''
      skipping = true
    }
  }
  if (!skipping) {
    const entry = lineEntry(lineNumber + 1, rest)
    if (entry) yield entry
  }
}

function lineEntry(lineNumber: number, raw: string): RawEntry | null {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
  if (text.trim() === '') return null
  if (text.length > MAX_ENTRY_CHARS) return { label: `line ${lineNumber}`, problem: TOO_LONG }
  return { label: `line ${lineNumber}`, text }
}

const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const COMMA = 0x2c
const QUOTE = 0x22
const BACKSLASH = 0x5c

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

/**
 * The items of one top-level JSON array, found by tracking nesting depth and strings; each item's text is
 * left to `JSON.parse`, so this scanner only has to know where items begin and end.
 */
async function* arrayItems(chunks: AsyncIterable<string>): AsyncGenerator<RawEntry> {
  let depth = 0
  let inString = false
  let escaped = false
  let closed = false
  let item = ''
  let itemNumber = 0
  let oversized = false
  const label = () => `item ${itemNumber}`
  const finishItem = (): RawEntry | null => {
    const text = item.trim()
    item = ''
    if (oversized) {
      oversized = false
      return { label: label(), problem: TOO_LONG }
    }
    return text === '' ? { label: label(), problem: 'empty item' } : { label: label(), text }
  }

  for await (const chunk of chunks) {
    let start = 0
    for (let i = 0; i < chunk.length; i++) {
      const code = chunk.charCodeAt(i)
      if (closed) {
        if (isSpace(code)) continue
        yield { label: `after item ${itemNumber}`, problem: 'unexpected text after the closing "]"' }
        return
      }
      if (inString) {
        if (escaped) escaped = false
        else if (code === BACKSLASH) escaped = true
        else if (code === QUOTE) inString = false
        continue
      }
      if (code === QUOTE) inString = true
      else if (code === OPEN_BRACKET || code === OPEN_BRACE) {
        depth += 1
        if (depth === 1) {
          start = i + 1
          itemNumber = 1
        }
      } else if (depth === 1 && (code === COMMA || code === CLOSE_BRACKET)) {
        item += chunk.slice(start, i)
        start = i + 1
        if (code === CLOSE_BRACKET) {
          depth = 0
          closed = true
          const last = finishItem()
          // `[]` and a last item are both closed by this bracket; only `[]` has no item text at all.
          if (last && !(itemNumber === 1 && 'problem' in last && last.problem === 'empty item')) yield last
        } else {
          const entry = finishItem()
          if (entry) yield entry
          itemNumber += 1
        }
      } else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) depth -= 1
    }
    if (!closed && depth >= 1) {
      if (!oversized) item += chunk.slice(start)
      if (item.length > MAX_ENTRY_CHARS) {
        oversized = true
        item = ''
      }
    }
  }
  if (!closed) yield { label: `item ${Math.max(itemNumber, 1)}`, problem: 'the JSON array is not closed' }
}
