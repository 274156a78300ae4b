import type { ProfileData } from 'hymem'
import { HonchoHttpError } from '../errors'
import type { HonchoMemory } from '../types'
import type { AugmentedContext } from './augment-ranking'
import { evidenceOf, factText, type WireEvidence } from './evidence'
import { memoryStatements, userStatements } from './managed-markdown'
import { observableSessions, peerProfile } from './peer-profile'

export interface DialecticRequest {
  readonly workspaceId: string
  readonly query: string
  /** The observed peer (chat target, or the path peer); null for workspace-wide chat. */
  readonly observed: string | null
  /** The asking peer (the path peer); with another `observed`, only what it could have seen is used. */
  readonly observer?: string | null
  readonly sessionIds?: readonly string[]
  /** The session whose recent history is injected into the prompt. */
  readonly sessionId?: string | null
  readonly responseFormat?: Record<string, unknown> | null
  readonly signal?: AbortSignal
}

export interface WireFact {
  subject: string
  predicate: string
  object: string
  confidence: number
  why: string[]
}

export interface DialecticAnswer {
  readonly content: string | null
  readonly evidence: WireEvidence
  /** The relevant graph facts with their reason codes (the ones a deterministic answer lists). */
  readonly facts: WireFact[]
}

const MAX_FACTS = 6
const MAX_NOTES = 4
const MAX_HITS = 5

type GraphFactItem = AugmentedContext['graphFacts'][number]

/** The label of facts about things rather than people, kept apart from what is known about a peer. */
const SHARED_WORLD = 'Shared world (projects, services):'

/** A fact whose subject is a peer (the observed one, for a question about a peer). */
function isAboutPeer(fact: GraphFactItem): boolean {
  return fact.aboutPeerId !== undefined
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

const SEMANTIC_FLOOR = 0.6

type Reason = AugmentedContext['graphFacts'][number]['reasons'][number]

/** A fact counts when an entity, a routed predicate or a strong semantic match surfaced it, not recency alone. */
function isRelevantFact(fact: AugmentedContext['graphFacts'][number]): boolean {
  return fact.reasons.some(
    (reason) =>
      reason.kind === 'entity_match' ||
      reason.kind === 'predicate' ||
      (reason.kind === 'fallback' && reason.branch === 'entity_anchored') ||
      strongSemantic(reason),
  )
}

function strongSemantic(reason: Reason): boolean {
  return reason.kind === 'semantic' && reason.similarity >= SEMANTIC_FLOOR
}

/** A hit counts when it matched keywords, or semantically above a floor. */
function isRelevantHit(hit: AugmentedContext['hits'][number]): boolean {
  return hit.reasons.some(
    (reason) => reason.kind === 'keyword' || reason.kind === 'rerank' || strongSemantic(reason),
  )
}

/**
 * Deterministic prose from the best relevant facts, notes and message hits; null when memory holds nothing
 * relevant (facts surfaced only by recency and weak semantic hits do not count).
 */
export function composeFromFacts(query: string, context: AugmentedContext): string | null {
  const facts = context.graphFacts.filter(isRelevantFact).slice(0, MAX_FACTS)
  const notes = context.notes.slice(0, MAX_NOTES)
  const hits = context.hits.filter(isRelevantHit).slice(0, MAX_HITS)
  if (facts.length === 0 && notes.length === 0 && hits.length === 0) return null
  const lines = [`From memory, relevant to "${clip(query, 200)}":`]
  const listFacts = (title: string, group: readonly GraphFactItem[]) => {
    if (group.length === 0) return
    lines.push('', title)
    for (const fact of group) lines.push(`- ${factText(fact)} (confidence ${fact.confidence.toFixed(2)})`)
  }
  listFacts('Known facts:', facts.filter(isAboutPeer))
  listFacts(
    SHARED_WORLD,
    facts.filter((fact) => !isAboutPeer(fact)),
  )
  if (notes.length > 0) {
    lines.push('', 'Notes:')
    for (const note of notes) lines.push(`- ${clip(note.content, 300)}`)
  }
  if (hits.length > 0) {
    lines.push('', 'From past conversations:')
    for (const hit of hits) {
      const who = hit.peerId ? `${hit.peerId} ` : ''
      lines.push(`- ${who}(${hit.createdAt.slice(0, 10)}): "${clip(hit.text, 300)}"`)
    }
  }
  return lines.join('\n')
}

/** A USER.md / MEMORY.md prompt section in plain sentences; `''` when empty. */
function profileSection(title: string, statements: readonly string[]): string {
  return statements.length > 0 ? `${title}:\n${clip(statements.join(' '), 4000)}` : ''
}

function llmPrompt(
  request: DialecticRequest,
  context: AugmentedContext,
  profile: ProfileData,
  history: string,
): { system: string; user: string } {
  const about = request.observed ? `the peer "${request.observed}"` : 'the people in this workspace'
  const system = [
    `You answer questions about ${about} using only the memory provided.`,
    'Be concise and factual. If the memory does not contain the answer, say so plainly.',
    request.responseFormat
      ? `Answer with one JSON object that validates against this JSON Schema: ${JSON.stringify(request.responseFormat)}`
      : '',
  ]
    .filter(Boolean)
    .join(' ')
  const factLines = (group: readonly GraphFactItem[]) =>
    group.map((f) => `- ${factText(f)} (confidence ${f.confidence.toFixed(2)})`).join('\n')
  const aboutPeers = context.graphFacts.filter(isAboutPeer)
  const world = context.graphFacts.filter((fact) => !isAboutPeer(fact))
  const sections = [
    aboutPeers.length > 0
      ? `Facts about ${request.observed ? `"${request.observed}"` : 'peers'}:\n${factLines(aboutPeers)}`
      : '',
    world.length > 0 ? `${SHARED_WORLD}\n${factLines(world)}` : '',
    context.notes.length > 0 ? `Notes:\n${context.notes.map((n) => `- ${n.content}`).join('\n')}` : '',
    context.hits.length > 0
      ? `Conversation excerpts:\n${context.hits.map((h) => `- [${h.createdAt.slice(0, 10)}] ${h.peerId ?? ''}: ${clip(h.text, 600)}`).join('\n')}`
      : '',
    profileSection('Profile', userStatements(profile)),
    profileSection('Insights', memoryStatements(profile)),
    history ? `Current session, most recent last:\n${history}` : '',
  ].filter(Boolean)
  return { system, user: `${sections.join('\n\n') || '(memory is empty)'}\n\nQuestion: ${request.query}` }
}

async function sessionHistory(
  memory: HonchoMemory,
  workspaceId: string,
  sessionId: string | null | undefined,
) {
  if (!sessionId) return ''
  const messages = await memory.messages.recent(workspaceId, { sessionId, limit: 12 })
  return messages
    .reverse()
    .map((message) => `${message.peerId}: ${clip(message.content, 500)}`)
    .join('\n')
}

/**
 * The sessions the asking peer could have seen the observed one in, when they differ (see
 * `observableSessions`); undefined when a peer asks about itself or nobody asks.
 */
async function perspectiveOf(memory: HonchoMemory, request: DialecticRequest): Promise<string[] | undefined> {
  const { observer, observed } = request
  if (!observer || !observed || observer === observed) return undefined
  const sessions = await observableSessions(memory, request.workspaceId, observer, observed)
  return sessions.map((s) => s.sessionId)
}

/** The context with only the graph facts evidenced in the given sessions (graph facts are not session-bound). */
async function seenFacts(
  memory: HonchoMemory,
  workspaceId: string,
  context: AugmentedContext,
  sessions: readonly string[],
): Promise<AugmentedContext> {
  const ids = [...new Set(context.graphFacts.flatMap((fact) => fact.messageIds))]
  const messages = ids.length > 0 ? await memory.messages.getByIds(workspaceId, ids) : []
  const visible = new Set(messages.filter((m) => sessions.includes(m.sessionId)).map((m) => m.id))
  const graphFacts = context.graphFacts.filter((fact) => fact.messageIds.some((id) => visible.has(id)))
  return { ...context, graphFacts }
}

/**
 * Answers a dialectic question from augment's context: composed by the configured LLM when there is one
 * (falling back to the facts if it fails), else as deterministic prose listing the best facts and hits.
 */
export async function answerQuestion(
  memory: HonchoMemory,
  request: DialecticRequest,
  onLlmError?: (error: unknown) => void,
): Promise<DialecticAnswer> {
  if (request.responseFormat && !memory.llm) {
    throw new HonchoHttpError('VALIDATION', 'response_format needs a configured LLM (set HYMEM_LLM_API_KEY)')
  }
  const seen = await perspectiveOf(memory, request)
  const sessionIds = seen
    ? (request.sessionIds ?? seen).filter((id) => seen.includes(id))
    : request.sessionIds
  const found = await memory.augment(request.query, {
    workspaceId: request.workspaceId,
    ...(request.observed ? { peerId: request.observed } : {}),
    ...(sessionIds ? { sessionIds } : {}),
  })
  const context = seen ? await seenFacts(memory, request.workspaceId, found, seen) : found
  let content = composeFromFacts(request.query, context)
  if (memory.llm) {
    const [history, profile] = await Promise.all([
      sessionHistory(memory, request.workspaceId, request.sessionId),
      request.observed
        ? peerProfile(memory, request.workspaceId, request.observed)
        : memory.profileData({ workspaceId: request.workspaceId }),
    ])
    const prompt = llmPrompt(request, context, profile, history)
    try {
      const completion = await memory.llm.complete({
        ...prompt,
        maxTokens: 800,
        ...(request.responseFormat ? { json: true } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      })
      content = completion.text.trim() || null
    } catch (error) {
      if (request.signal?.aborted || request.responseFormat) throw error
      onLlmError?.(error)
    }
  }
  const facts = context.graphFacts.filter(isRelevantFact).map((fact) => ({
    subject: fact.subject,
    predicate: fact.predicate,
    object: fact.object,
    confidence: fact.confidence,
    why: fact.whyRetrieved,
  }))
  return { content, evidence: await evidenceOf(memory, request, context), facts }
}
