import type { HonchoMemory } from '../types'
import type { QueueTracker } from './queue-tracker'

interface WorkUnits {
  total_work_units: number
  completed_work_units: number
  in_progress_work_units: number
  pending_work_units: number
}

export interface WireQueueStatus extends WorkUnits {
  sessions: Record<string, WorkUnits & { session_id: string }> | null
}

const NO_UNITS: WorkUnits = {
  total_work_units: 0,
  completed_work_units: 0,
  in_progress_work_units: 0,
  pending_work_units: 0,
}

function add(a: WorkUnits, b: WorkUnits): WorkUnits {
  return {
    total_work_units: a.total_work_units + b.total_work_units,
    completed_work_units: a.completed_work_units + b.completed_work_units,
    in_progress_work_units: a.in_progress_work_units + b.in_progress_work_units,
    pending_work_units: a.pending_work_units + b.pending_work_units,
  }
}

/** Raises the total to its stored high-water mark; the shortfall (vanished work) counts as completed. */
function held(units: WorkUnits, highest: number | undefined): WorkUnits {
  const shortfall = Math.max(0, (highest ?? 0) - units.total_work_units)
  return {
    ...units,
    total_work_units: units.total_work_units + shortfall,
    completed_work_units: units.completed_work_units + shortfall,
  }
}

/**
 * A session's units, one per message: pending until a dream has chunked it (plus one for each chunk still to
 * extract), in progress while a dream runs, completed after. A session the running dream covers keeps at least one unit in progress (its newest
 * message) until the dream ends, so pollers wait for the extraction too.
 */
function sessionUnits(
  tracker: QueueTracker,
  ws: string,
  sessionId: string,
  counts: { messages: number; waiting: number; running: boolean },
): WorkUnits {
  const { messages, running } = counts
  const waiting = Math.min(messages, counts.waiting)
  const covered = running && waiting === 0 && messages > 0 && tracker.covers(ws, sessionId)
  const inProgress = running ? waiting : 0
  return {
    total_work_units: messages,
    completed_work_units: messages - waiting - (covered ? 1 : 0),
    in_progress_work_units: inProgress + (covered ? 1 : 0),
    pending_work_units: waiting - inProgress,
  }
}

/**
 * Honcho's queue status (W6) from the real dreaming backlog, one work unit per message. While a background
 * or `schedule_dream` dream runs, its work is in progress; totals never decrease (the highest reported is kept
 * in the store, `queueTotals`, so every server on one database reports the same; deleted work counts as
 * completed, like Honcho's "since the last cleanup"). The workspace counts are the sum of every session's;
 * `sessions` lists the sessions with pending or in-progress work, each exactly as `session_id=` reports it.
 * Pollers reach pending = in_progress = 0 once the dreams are done.
 */
export async function queueStatus(
  memory: HonchoMemory,
  tracker: QueueTracker,
  workspaceId: string,
  options: { sessionId?: string | undefined; kick: boolean; dreaming: boolean },
): Promise<WireQueueStatus> {
  const reported = await memory.queue.backlog(workspaceId)
  const running = reported.running || options.dreaming
  // Pollers wait for pending = 0: make sure a (cooled-down) background dream is on its way, also for chunks
  // a dream killed mid-cycle (here or on another server) left unextracted.
  const waiting = reported.pendingMessages > 0 || reported.pendingChunks > 0
  if (options.kick && !running && waiting) memory.queue.schedule(workspaceId)
  // An unextracted chunk (left by a dream killed mid-cycle) keeps one unit of its session waiting.
  const waitingIn = (id: string) => {
    const session = reported.sessions[id]
    return session === undefined ? 0 : session.pendingMessages + session.pendingChunks
  }
  await tracker.observe(
    workspaceId,
    running,
    new Set(Object.keys(reported.sessions).filter((id) => waitingIn(id) > 0)),
    async () => {
      const [newest] = await memory.messages.recent(workspaceId, { limit: 1 })
      return newest?.sessionId ?? null
    },
  )
  const messagesIn = await memory.messages.countBySession(
    workspaceId,
    options.sessionId !== undefined ? { sessionId: options.sessionId } : {},
  )
  const unitsOf = (id: string) =>
    sessionUnits(tracker, workspaceId, id, {
      messages: messagesIn.get(id) ?? 0,
      waiting: waitingIn(id),
      running,
    })
  if (options.sessionId !== undefined) {
    const units = unitsOf(options.sessionId)
    const highest = await memory.queue.holdTotals(workspaceId, [
      { sessionId: options.sessionId, total: units.total_work_units },
    ])
    return { ...held(units, highest.get(options.sessionId)), sessions: null }
  }

  const ids = [...new Set([...messagesIn.keys(), ...Object.keys(reported.sessions)])]
  const raw = new Map(ids.map((id) => [id, unitsOf(id)]))
  const highest = await memory.queue.holdTotals(
    workspaceId,
    ids.map((id) => ({ sessionId: id, total: raw.get(id)!.total_work_units })),
  )
  let totals = NO_UNITS
  const sessions: Record<string, WorkUnits & { session_id: string }> = {}
  for (const id of ids) {
    const units = held(raw.get(id)!, highest.get(id))
    totals = add(totals, units)
    if (units.pending_work_units + units.in_progress_work_units > 0)
      sessions[id] = { session_id: id, ...units }
  }
  const workspaceHighest = await memory.queue.holdTotals(workspaceId, [
    { sessionId: null, total: totals.total_work_units },
  ])
  return {
    ...held(totals, workspaceHighest.get(null)),
    sessions: Object.keys(sessions).length > 0 ? sessions : null,
  }
}
