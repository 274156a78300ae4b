import { conclusionIdOfEdge, type Message } from '@hymem/core-store'
import type { HonchoMemory } from '../types'
import type { AugmentedContext } from './augment-ranking'

type GraphFactItem = AugmentedContext['graphFacts'][number]

/** Most messages an evidence block names. */
const MAX_MESSAGES = 100

/**
 * `include_evidence` of chat: Honcho's shape (conclusions, message refs, tool calls) plus HyMem's provenance:
 * every conclusion names the messages behind it, every message the words of the question it contains.
 */
export interface WireEvidence {
  conclusions: {
    id: string
    level: string
    content: string
    created_at: string
    session_id: string | null
    source_ids: string[]
    /** Public ids of the messages the conclusion was drawn from (HyMem). */
    message_ids: string[]
    /** Why retrieval picked it (reason codes; HyMem). */
    why: string[]
  }[]
  messages: {
    id: string
    session_id: string
    peer_id: string
    created_at: string
    /** Words of the question found in the message (HyMem). */
    matched_words: string[]
  }[]
  tool_calls: { tool_name: string; tool_input: Record<string, unknown> }[]
  reasoning_trace_id: string | null
}

/** What the evidence is of: the question and how it was scoped. */
export interface EvidenceRequest {
  readonly workspaceId: string
  readonly query: string
  readonly observed: string | null
  readonly sessionIds?: readonly string[]
}

/** A fact as a sentence: `billing_service depends on redis`. */
export function factText(fact: GraphFactItem): string {
  return `${fact.subject} ${fact.predicate.replaceAll('_', ' ')} ${fact.object}`
}

function questionWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])]
}

function matchedWords(words: readonly string[], text: string): string[] {
  const found = new Set(text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])
  return words.filter((word) => found.has(word))
}

/** The one session all of `messages` come from, else null. */
function soleSession(messages: readonly Message[]): string | null {
  const sessions = new Set(messages.map((m) => m.sessionId))
  return sessions.size === 1 ? [...sessions][0]! : null
}

/** Builds the evidence of an answer from the context it was composed from. */
export async function evidenceOf(
  memory: HonchoMemory,
  request: EvidenceRequest,
  context: AugmentedContext,
): Promise<WireEvidence> {
  const ws = request.workspaceId
  const ids = [
    ...new Set([
      ...context.hits.flatMap((hit) => hit.messageIds),
      ...context.graphFacts.flatMap((f) => f.messageIds),
    ]),
  ].slice(0, MAX_MESSAGES)
  const messages = (ids.length > 0 ? await memory.messages.getByIds(ws, ids) : []).sort((a, b) => a.id - b.id)
  const byId = new Map(messages.map((m) => [m.id, m]))
  // In id order, as the notes' evidence has always been listed.
  const noteIds = [...new Set(context.notes.map((note) => note.id))].sort()
  const found = await Promise.all(
    noteIds.map((id) => memory.notes.get(id, { workspaceId: ws, includeArchived: true })),
  )
  const notes = found.filter((note) => note !== null)
  const words = questionWords(request.query)
  return {
    conclusions: [
      ...notes.map((note) => ({
        id: note.id,
        level: note.level,
        content: note.content,
        created_at: note.createdAt,
        session_id: note.sessionId,
        source_ids: note.sourceIds.map(String),
        message_ids: [],
        why: context.notes.find((hit) => hit.id === note.id)?.whyRetrieved ?? [],
      })),
      ...context.graphFacts.map((fact) => {
        const behind = fact.messageIds.map((id) => byId.get(id)).filter((m) => m !== undefined)
        return {
          id: conclusionIdOfEdge(fact.id),
          level: fact.derived ? 'deductive' : 'explicit',
          content: factText(fact),
          created_at: fact.validFrom,
          session_id: soleSession(behind),
          source_ids: [],
          message_ids: behind.map((m) => m.publicId),
          why: fact.whyRetrieved,
        }
      }),
    ],
    messages: messages.map((m) => ({
      id: m.publicId,
      session_id: m.sessionId,
      peer_id: m.peerId,
      created_at: m.createdAt,
      matched_words: matchedWords(words, m.content),
    })),
    tool_calls: [
      {
        tool_name: 'augment',
        tool_input: {
          query: request.query,
          ...(request.observed ? { peer_id: request.observed } : {}),
          ...(request.sessionIds ? { session_ids: request.sessionIds } : {}),
        },
      },
    ],
    reasoning_trace_id: null,
  }
}
