import type { Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import type { HyMemLog } from '../log'
import { embedEdges, embedNotes } from './embed-imported'
import { writeDump } from './import'
import { readDump } from './read-dump'
import type { ImportReport } from './types'

/**
 * Validates a whole dump, writes it in ONE transaction (existing ids skipped), then embeds the new notes with
 * the configured model, and the new edges too (sharing vectors by triple text). Chunks and episodes are not
 * in a dump; a provider failure only leaves rows unembedded (reported in `warnings`), never unimported.
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
  if (embeddings && counts.newNotes.length + counts.newEdges.length > 0) {
    try {
      embedded += await embedNotes(store, embeddings, counts.newNotes)
      embedded += await embedEdges(store, embeddings, counts.newEdges)
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
