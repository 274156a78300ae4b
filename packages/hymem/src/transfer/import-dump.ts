import type { Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import type { HyMemLog } from '../log'
import { embedUnembedded } from './embed-imported'
import { DumpWriter } from './import'
import { parseDump } from './read-dump'
import type { ImportReport } from './types'

/**
 * Streams a dump into the store in ONE transaction (existing rows skipped; any invalid line rolls it all
 * back), keeping vectors the dump carries when they are of the configured embedding model (or no embedder
 * is configured), then embeds the new rows still without a vector. A provider failure only leaves rows
 * unembedded (reported in `warnings`), never unimported.
 */
export async function importDump(
  store: Store,
  embeddings: EmbeddingClient | null,
  log: HyMemLog,
  lines: AsyncIterable<string> | Iterable<string>,
): Promise<ImportReport> {
  const counts = await store.transaction(async (tx) => {
    const writer = new DumpWriter(
      tx,
      (_index, vector) => embeddings === null || vector.model === embeddings.model,
    )
    for await (const record of parseDump(lines)) await writer.write(record)
    return writer.finish()
  })
  let embedded = 0
  const warnings = [...counts.warnings]
  if (embeddings) {
    try {
      embedded = await embedUnembedded(store, embeddings, counts.unembedded)
    } catch (error) {
      const message = (error as Error).message
      warnings.push(`rows were imported but not embedded (${message}); run reindex once the provider answers`)
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
