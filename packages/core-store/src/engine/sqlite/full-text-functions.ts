import { fullTextIndexText } from '../../text/index-text'

/** The part of a SQLite connection that registers functions (better-sqlite3's `Database`). */
export interface SqliteFunctionHost {
  function(
    name: string,
    options: { deterministic: boolean },
    implementation: (value: unknown) => unknown,
  ): unknown
}

/**
 * Registers `hymem_fts_text(text)`, which HyMem's full-text triggers index instead of the raw text (see
 * `fullTextIndexText`). `openStore` does it on every connection; a connection opened by hand must do it
 * before it writes messages, chunks, episodes, procedures or notes.
 *
 * @example
 * const raw = new Database(path)
 * registerFullTextFunctions(raw)
 */
export function registerFullTextFunctions(db: SqliteFunctionHost): void {
  db.function('hymem_fts_text', { deterministic: true }, (value) =>
    typeof value === 'string' ? fullTextIndexText(value) : value,
  )
}
