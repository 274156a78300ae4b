import type { Chunk, DreamRun, Edge, Message, Page, SearchLogDay } from '@hymem/core-store'
import type { Note } from '../notes/types'

type Ws = { readonly workspaceId?: string }

/** What {@link HyMemInspect.graph} draws. Entity names are canonicalised and aliases resolved. */
export interface GraphQuery extends Ws {
  /** Only edges touching this entity. */
  readonly entity?: string
  readonly predicate?: string
  /** Only edges whose subject, predicate or object contains this text. */
  readonly text?: string
  /** Only edges about this peer or with evidence from a message it wrote. */
  readonly peerId?: string
  /** Only edges with evidence from this session. */
  readonly sessionId?: string
  /** Also stale, superseded and retracted edges. @default false */
  readonly includeInactive?: boolean
  /** The graph as `augment({ asOf })` sees it on that day. */
  readonly asOf?: string | Date
  /** Most edges drawn, highest confidence first. @default 200 */
  readonly limit?: number
}

/** An entity of the graph picture. */
export interface GraphNode {
  /** The canonical entity name. */
  readonly id: string
  /** Its recorded entity type, or null. */
  readonly type: string | null
  /** Edges of the picture touching it. */
  readonly degree: number
}

/** A graph picture: the top edges by confidence, their entities, and how many matching edges were left out. */
export interface GraphView {
  readonly nodes: GraphNode[]
  readonly edges: Edge[]
  /** Edges matching the query. */
  readonly total: number
  /** Matching edges not drawn (total − drawn). */
  readonly hidden: number
  /** The as-of time in stored form, or null for the current graph. */
  readonly asOf: string | null
}

/** One piece of evidence of a fact with where it came from. */
export interface FactEvidence {
  readonly id: number
  /** 1 supports the fact, -1 contradicts it. */
  readonly polarity: number
  /** The sentence the extractor quoted, when it gave one. */
  readonly text: string | null
  readonly observedAt: string
  readonly source: string
  readonly chunk: Chunk | null
  /** The source messages (session, speaker, time, text). */
  readonly messages: Message[]
}

/** One edge with everything known about it. */
export interface FactView {
  readonly edge: Edge
  readonly subjectType: string | null
  readonly objectType: string | null
  readonly evidence: FactEvidence[]
  /** Edges this one replaced, newest first. */
  readonly replaced: Edge[]
  /** Edges that replaced this one, oldest first. */
  readonly replacedBy: Edge[]
}

/** One change in the graph's history. */
export interface TimelineEvent {
  readonly at: string
  readonly kind: 'appeared' | 'superseded' | 'retracted'
  readonly subject: string
  readonly predicate: string
  readonly object: string
  /** The edge, when the change is an edge's (retractions name a triple). */
  readonly edgeId: number | null
}

/** Changes of one UTC day. */
export interface TimelineDay {
  readonly day: string
  readonly appeared: number
  readonly superseded: number
  readonly retracted: number
}

/** The graph's history: changes per day and the latest changes. */
export interface TimelineView {
  /** Oldest day first. */
  readonly days: TimelineDay[]
  /** Latest first. */
  readonly events: TimelineEvent[]
}

/** Values the graph filters offer. */
export interface InspectFilters {
  readonly peers: string[]
  readonly sessions: string[]
  readonly predicates: { readonly predicate: string; readonly edges: number }[]
}

/** Dream runs and search-log figures over time. */
export interface HealthView {
  /** Most recent first. */
  readonly dreams: DreamRun[]
  /** Oldest day first. */
  readonly searchDays: SearchLogDay[]
}

/** Read APIs behind the memory inspector (`memory.inspect`). Writes go through `retract`, `alias`, `forget`, `restore`. */
export interface HyMemInspect {
  /** Every workspace id, in creation order. */
  workspaces(): Promise<string[]>
  filters(options?: Ws): Promise<InspectFilters>
  graph(query?: GraphQuery): Promise<GraphView>
  /** One edge with its evidence, source messages, chunks, entity types and supersede chain; null when absent. */
  fact(id: number, options?: Ws): Promise<FactView | null>
  /** Messages of the workspace by internal id, in the order asked. */
  messages(ids: readonly number[], options?: Ws): Promise<Message[]>
  timeline(options?: Ws & { readonly limit?: number }): Promise<TimelineView>
  /** Notes, active first; archived ones with `includeArchived`. */
  notes(
    options?: Ws & { readonly includeArchived?: boolean; readonly page?: number; readonly size?: number },
  ): Promise<Page<Note>>
  health(options?: Ws & { readonly dreams?: number }): Promise<HealthView>
}
