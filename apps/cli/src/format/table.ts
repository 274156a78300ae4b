/** Column alignment of {@link renderTable}. */
export type Align = 'left' | 'right'

export interface TableOptions {
  /** Header row; omitted for key/value lists. */
  readonly head?: readonly string[]
  readonly align?: readonly Align[]
  /** Prefix of every line. @default '  ' */
  readonly indent?: string
  /** Applied after padding, so ANSI codes do not break alignment. */
  readonly decorate?: (cell: string, row: number, column: number) => string
}

/** Renders rows as plain, space-aligned columns (no box drawing, so it pastes cleanly anywhere). */
export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const all = options.head ? [options.head, ...rows] : rows
  const columns = Math.max(0, ...all.map((r) => r.length))
  const widths = Array.from({ length: columns }, (_, c) =>
    Math.max(0, ...all.map((r) => (r[c] ?? '').length)),
  )
  const indent = options.indent ?? '  '
  const lines = all.map((row, r) => {
    const cells = widths.map((width, c) => {
      const raw = row[c] ?? ''
      const last = c === columns - 1
      const padded = options.align?.[c] === 'right' ? raw.padStart(width) : last ? raw : raw.padEnd(width)
      const dataRow = options.head ? r - 1 : r
      return options.decorate && dataRow >= 0 ? options.decorate(padded, dataRow, c) : padded
    })
    return `${indent}${cells.join('  ')}`.trimEnd()
  })
  return `${lines.join('\n')}\n`
}

/** Shortens `text` to `max` characters with an ellipsis, on one line. */
export function truncate(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, Math.max(0, max - 1))}…`
}
