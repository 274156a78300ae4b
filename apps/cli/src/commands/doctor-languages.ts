import type { Store } from '@hymem/core-store'
import type { DoctorCheck, EmbedderInfo } from './doctor-types'

/** Offline models trained on English text only: their vectors mean little for other scripts. */
const ENGLISH_ONLY_MODELS: ReadonlySet<string> = new Set([
  'use-lite-512',
  'minilm-l6-v2-384',
  'minilm-l6-v2-int8-384',
])
/** How many of the newest messages are read to see which scripts the memory holds. */
const SAMPLE = 500
/** A letter of a script other than Latin. */
const OTHER_SCRIPT = /(?=\p{L})\P{Script=Latin}/u

/**
 * The one-line notice of the Languages section of the README: the embedder reads English only while the
 * memory holds other scripts, so their messages are found by keyword alone.
 */
export async function checkLanguages(
  store: Store,
  workspaceId: string,
  embedder: EmbedderInfo | null,
): Promise<DoctorCheck[]> {
  if (!embedder || !ENGLISH_ONLY_MODELS.has(embedder.model)) return []
  const messages = await store.messages.recent(workspaceId, { limit: SAMPLE })
  const other = messages.filter((message) => OTHER_SCRIPT.test(message.content)).length
  if (other === 0) return []
  return [
    {
      name: 'languages',
      status: 'warn',
      detail: `${other} of the newest ${messages.length} messages are in scripts other than Latin, but ${embedder.name} reads English only: they are found by keyword alone (see "Languages" in the README)`,
    },
  ]
}
