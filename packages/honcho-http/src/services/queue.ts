import type { HonchoMemory } from '../types'

interface WorkUnits {
  total_work_units: number
  completed_work_units: number
  in_progress_work_units: number
  pending_work_units: number
}

export interface WireQueueStatus extends WorkUnits {
  sessions: Record<string, WorkUnits & { session_id: string }> | null
}

/** While a dream runs with no message left to chunk, the dream itself is one unit in progress. */
function units(messages: number, waiting: number, running: boolean): WorkUnits {
  const extra = running && waiting === 0 ? 1 : 0
  return {
    total_work_units: messages + extra,
    completed_work_units: Math.max(0, messages - waiting),
    in_progress_work_units: running ? waiting + extra : 0,
    pending_work_units: running ? 0 : waiting,
  }
}

/**
 * Honcho's queue status from the real dreaming backlog: one work unit per message; a message is pending until
 * a dream has processed it, in progress while a dream runs, completed after. Reaches pending = 0 after a dream.
 */
export async function queueStatus(
  memory: HonchoMemory,
  workspaceId: string,
  options: { sessionId?: string | undefined; kick: boolean; dreaming: boolean },
): Promise<WireQueueStatus> {
  const reported = await memory.dreamBacklog(workspaceId)
  const backlog = { ...reported, running: reported.running || options.dreaming }
  // Pollers wait for pending = 0: make sure a (cooled-down) background dream is on its way.
  if (options.kick && !backlog.running && backlog.pendingMessages > 0) {
    memory.scheduleDream(workspaceId)
  }
  const sessionId = options.sessionId
  if (sessionId) {
    const waiting = backlog.sessions[sessionId]?.pendingMessages ?? 0
    const total = await memory.store.messages.count(workspaceId, { sessionId })
    return { ...units(total, waiting, backlog.running), sessions: null }
  }
  const total = await memory.store.messages.count(workspaceId)
  const sessions: Record<string, WorkUnits & { session_id: string }> = {}
  for (const [id, session] of Object.entries(backlog.sessions)) {
    if (session.pendingMessages <= 0) continue
    const sessionTotal = await memory.store.messages.count(workspaceId, { sessionId: id })
    sessions[id] = { session_id: id, ...units(sessionTotal, session.pendingMessages, backlog.running) }
  }
  return {
    ...units(total, backlog.pendingMessages, backlog.running),
    sessions: Object.keys(sessions).length > 0 ? sessions : null,
  }
}
