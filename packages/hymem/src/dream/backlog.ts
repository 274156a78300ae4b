import type { Store } from '@hymem/core-store'
import type { DreamBacklog } from '../types'

/**
 * Work waiting for the next dream: messages after each session's last chunked message, and chunks without a
 * `processed_chunks` row for the current prompt version.
 */
export async function dreamBacklog(
  store: Store,
  workspaceId: string,
  promptVersion: string,
  running: boolean,
): Promise<DreamBacklog> {
  const perSession = await store.db
    .selectFrom('messages as m')
    .innerJoin('sessions as s', (join) =>
      join.onRef('s.workspace_id', '=', 'm.workspace_id').onRef('s.id', '=', 'm.session_id'),
    )
    .where('m.workspace_id', '=', workspaceId)
    .whereRef('m.id', '>', 's.last_chunked_message_id')
    .select(['m.session_id as sessionId', (eb) => eb.fn.countAll<number>().as('pending')])
    .groupBy('m.session_id')
    .orderBy('m.session_id')
    .execute()
  const chunks = await store.db
    .selectFrom('chunks as c')
    .where('c.workspace_id', '=', workspaceId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('processed_chunks as p')
            .select('p.chunk_id')
            .whereRef('p.chunk_id', '=', 'c.id')
            .where('p.prompt_version', '=', promptVersion),
        ),
      ),
    )
    .select((eb) => eb.fn.countAll<number>().as('pending'))
    .executeTakeFirstOrThrow()
  const sessions: Record<string, { pendingMessages: number }> = {}
  let pendingMessages = 0
  for (const row of perSession) {
    const count = Number(row.pending)
    sessions[row.sessionId] = { pendingMessages: count }
    pendingMessages += count
  }
  return { pendingMessages, pendingChunks: Number(chunks.pending), running, sessions }
}
