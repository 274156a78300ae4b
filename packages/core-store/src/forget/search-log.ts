import { queryWords } from '../text/query-words'
import { ENGLISH_STOP_WORDS } from '../text/stop-words'
import { deleteInWorkspace } from './delete-in'
import type { PurgeTx, Tally } from './tally'

/**
 * The distinctive lower-case words of some texts, as full-text search reads them (`queryWords`: character
 * pairs of Chinese and Japanese, dictionary words of Thai): no stop words, at least three characters (two for
 * a pair of unspaced characters).
 */
export function distinctiveWords(texts: Iterable<string>): Set<string> {
  const words = new Set<string>()
  for (const text of texts) {
    for (const { text: searched, source } of queryWords(text)) {
      const word = source.toLowerCase()
      const long = word.length >= 3 || (searched.includes(' ') && word.length >= 2)
      if (long && !ENGLISH_STOP_WORDS.has(word)) words.add(word)
    }
  }
  return words
}

/**
 * Removes the logged searches that named forgotten content: queries holding a distinctive word of the
 * forgotten texts that no remaining message or note of the workspace contains. (Searches asked after the
 * purge are new input and are logged as usual.)
 */
export async function scrubSearchLog(
  tx: PurgeTx,
  workspaceId: string,
  forgottenTexts: readonly string[],
  tally: Tally,
): Promise<void> {
  const forgotten = distinctiveWords(forgottenTexts)
  if (forgotten.size === 0) return
  const logged = await tx.db
    .selectFrom('search_log')
    .select(['id', 'query'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const queries = logged.map((row) => ({ id: row.id, words: distinctiveWords([row.query]) }))
  const named = new Set<string>()
  for (const query of queries) for (const word of query.words) if (forgotten.has(word)) named.add(word)
  const gone = new Set<string>()
  for (const word of named) if (!(await stillKnown(tx, workspaceId, word))) gone.add(word)
  if (gone.size === 0) return
  const doomed = queries.filter((q) => [...q.words].some((w) => gone.has(w))).map((q) => q.id)
  await deleteInWorkspace(tx, 'search_log', workspaceId, 'id', doomed)
  tally.add('searchLog', doomed.length)
}

/** Whether a remaining message or note of the workspace holds the word (full text, so stems match too). */
async function stillKnown(tx: PurgeTx, workspaceId: string, word: string): Promise<boolean> {
  return tx.engine.fullTextHolds(tx.db, workspaceId, word)
}
