import type { Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import type { HyMemLog } from '../log'
import { readDump, writeDump } from './import'
import { embedNotes } from './reindex'
import type { ImportReport } from './types'

/**
 * Validates a whole dump, writes it in ONE transaction (existing ids skipped), then embeds the new notes with
 * the configured model. Chunks, edges and episodes are embedded by the next dream (it embeds every text
 * without a vector), so importing never needs the provider to be up.
 */
export async function importDump(
  store: Store,
  embeddings: EmbeddingClient | null,
  log: HyMemLog,
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<ImportReport> {
  const records = await readDump(lines)
  const counts = await store.transaction((tx) => writeDump(tx, records))
  let embedded = 0
  const warnings = [...counts.warnings]
  if (embeddings && counts.newNotes.length > 0) {
    try {
      embedded = await embedNotes(store, embeddings, counts.newNotes)
    } catch (error) {
      const message = (error as Error).message
      warnings.push(
        `notes were imported but not embedded (${message}); run reindex once the provider answers`,
      )
      log({ kind: 'embed-failed', level: 'warn', what: 'import', message })
    }
  }
  const total = (bucket: Record<string, number>) => Object.values(bucket).reduce((sum, n) => sum + n, 0)
  log({
    kind: 'import',
    level: 'info',
    inserted: total(counts.inserted),
    skipped: total(counts.skipped),
    embedded,
  })
  return { inserted: counts.inserted, skipped: counts.skipped, embedded, warnings }
}
