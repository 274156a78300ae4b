import type { Conclusion, Message, Page, Peer, Scope, Session, Workspace } from '@hymem/core-store'
import { isPlainObject } from './sanitize'

type Json = Record<string, unknown>

export interface WireWorkspace {
  id: string
  metadata: Json
  configuration: Json
  created_at: string
}
export interface WirePeer {
  id: string
  workspace_id: string
  metadata: Json
  configuration: Json
  created_at: string
}
export interface WireSession {
  id: string
  workspace_id: string
  is_active: boolean
  metadata: Json
  configuration: Json
  created_at: string
}
export interface WireMessage {
  id: string
  content: string
  peer_id: string
  session_id: string
  workspace_id: string
  metadata: Json
  created_at: string
  token_count: number
}
export interface WireConclusion {
  id: string
  content: string
  observer_id: string
  observed_id: string
  session_id: string | null
  level: string
  source_ids: string[] | null
  times_derived: number
  created_at: string
}
export interface WireScope {
  id: string
  metadata: Json
  created_at: string
}
export interface WirePage<T> {
  items: T[]
  total: number
  page: number
  size: number
  pages: number
}

export function workspaceOut(w: Workspace): WireWorkspace {
  return { id: w.id, metadata: w.metadata, configuration: w.configuration, created_at: w.createdAt }
}

/** Peer configuration on the wire holds only `observe_me` (the Python SDK forbids other keys). */
export function peerOut(p: Peer): WirePeer {
  const configuration: Json = {}
  if (typeof p.configuration.observe_me === 'boolean') configuration.observe_me = p.configuration.observe_me
  return {
    id: p.id,
    workspace_id: p.workspaceId,
    metadata: p.metadata,
    configuration,
    created_at: p.createdAt,
  }
}

export function sessionOut(s: Session): WireSession {
  return {
    id: s.id,
    workspace_id: s.workspaceId,
    is_active: s.isActive,
    metadata: s.metadata,
    configuration: s.configuration,
    created_at: s.createdAt,
  }
}

export function messageOut(m: Message, extraMetadata?: Json): WireMessage {
  return {
    id: m.publicId,
    content: m.content,
    peer_id: m.peerId,
    session_id: m.sessionId,
    workspace_id: m.workspaceId,
    metadata: extraMetadata ? { ...m.metadata, ...extraMetadata } : m.metadata,
    created_at: m.createdAt,
    token_count: m.tokenCount,
  }
}

export function conclusionOut(c: Conclusion): WireConclusion {
  return {
    id: c.id,
    content: c.content,
    observer_id: c.observerId,
    observed_id: c.observedId,
    session_id: c.sessionId,
    level: c.level,
    source_ids: [...c.sourceIds],
    times_derived: c.timesDerived,
    created_at: c.createdAt,
  }
}

export function scopeOut(s: Scope): WireScope {
  return { id: s.id, metadata: s.metadata, created_at: s.createdAt }
}

export function pageOut<T, U>(page: Page<T>, map: (item: T) => U): WirePage<U> {
  return {
    items: page.items.map(map),
    total: page.total,
    page: page.page,
    size: page.size,
    pages: page.pages,
  }
}

/** Session-peer configuration on the wire: exactly `observe_me` and `observe_others` (null when unset). */
export function sessionPeerConfigOut(configuration: Json): {
  observe_me: boolean | null
  observe_others: boolean | null
} {
  const pick = (key: string) =>
    typeof configuration[key] === 'boolean' ? (configuration[key] as boolean) : null
  return { observe_me: pick('observe_me'), observe_others: pick('observe_others') }
}

export function jsonObject(value: unknown): Json {
  return isPlainObject(value) ? value : {}
}
