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

function units(total: number, waiting: number, running: boolean): WorkUnits {
  return {
    total_work_units: total,
    completed_work_units: Math.max(0, total - waiting),
    in_progress_work_units: running ? waiting : 0,
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
  sessionId?: string,
): Promise<WireQueueStatus> {
  const backlog = await memory.dreamBacklog(workspaceId)
  if (sessionId) {
    const waiting = backlog.sessions[sessionId]?.pendingMessages ?? 0
    const total = await memory.store.messages.count(workspaceId, { sessionId })
    return { ...units(total, waiting, backlog.running && waiting > 0), sessions: null }
  }
  const total = await memory.store.messages.count(workspaceId)
  const sessions: Record<string, WorkUnits & { session_id: string }> = {}
  for (const [id, session] of Object.entries(backlog.sessions)) {
    if (session.pendingMessages <= 0) continue
    const sessionTotal = await memory.store.messages.count(workspaceId, { sessionId: id })
    sessions[id] = { session_id: id, ...units(sessionTotal, session.pendingMessages, backlog.running) }
  }
  return {
    ...units(total, backlog.pendingMessages, backlog.running && backlog.pendingMessages > 0),
    sessions: Object.keys(sessions).length > 0 ? sessions : null,
  }
}
