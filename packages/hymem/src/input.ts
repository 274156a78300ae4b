import { ISO_TIME_HINT, type NewMessage, parseIsoTime } from '@hymem/core-store'
import { HyMemError } from './errors'
import type { CaptureTurn, LogInput } from './types'

const ROLES = new Set(['user', 'assistant', 'system', 'tool'])
const ID = /^[^\s/\\][^\n\r\t]{0,255}$/

/** Validates a workspace id (the same rule as `HYMEM_WORKSPACE`, loosened to any printable 1-256 chars). */
export function requireWorkspaceId(id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new HyMemError(
      'INVALID_INPUT',
      `workspaceId must be 1-256 printable characters, got ${JSON.stringify(id)}`,
    )
  }
  return id
}

export function requireSessionId(id: unknown): asserts id is string {
  if (typeof id !== 'string' || !ID.test(id)) {
    throw new HyMemError(
      'INVALID_INPUT',
      `sessionId must be 1-256 printable characters, got ${JSON.stringify(id)}`,
    )
  }
}

function requireRole(role: unknown, at: string): asserts role is NewMessage['role'] & string {
  if (typeof role !== 'string' || !ROLES.has(role)) {
    throw new HyMemError(
      'INVALID_INPUT',
      `${at}role must be one of user, assistant, system, tool (got ${JSON.stringify(role)})`,
    )
  }
}

function requireContent(content: unknown, at: string): asserts content is string {
  if (typeof content !== 'string') throw new HyMemError('INVALID_INPUT', `${at}content must be a string`)
}

function requireMetadata(metadata: unknown, at: string): Record<string, unknown> | undefined {
  if (metadata === undefined) return undefined
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new HyMemError('INVALID_INPUT', `${at}metadata must be a JSON object`)
  }
  return metadata as Record<string, unknown>
}

function requireTime(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined
  const time = parseIsoTime(value)
  if (time === null)
    throw new HyMemError(
      'INVALID_INPUT',
      `${at}createdAt must be ${ISO_TIME_HINT} (got ${JSON.stringify(value)})`,
    )
  return time
}

/** `log()` input → the session and the one message to insert. */
export function toLogMessage(input: LogInput): { sessionId: string; message: NewMessage } {
  if (typeof input !== 'object' || input === null)
    throw new HyMemError('INVALID_INPUT', 'log needs an object')
  requireRole(input.role, '')
  requireContent(input.content, '')
  const sessionId = input.sessionId ?? 'default'
  requireSessionId(sessionId)
  const peerId = input.peerId ?? input.role
  requireSessionId(peerId)
  const metadata = requireMetadata(input.metadata, '')
  const createdAt = requireTime(input.createdAt, '')
  return {
    sessionId,
    message: {
      peerId,
      role: input.role,
      content: input.content,
      ...(metadata ? { metadata } : {}),
      ...(createdAt ? { createdAt } : {}),
    },
  }
}

/** `capture()` turns → messages; peers are `name` or the role. */
export function toCaptureMessages(turns: readonly CaptureTurn[]): NewMessage[] {
  if (!Array.isArray(turns)) throw new HyMemError('INVALID_INPUT', 'capture needs an array of turns')
  return turns.map((turn, index) => {
    const at = `turn ${index + 1}: `
    if (typeof turn !== 'object' || turn === null)
      throw new HyMemError('INVALID_INPUT', `${at}must be an object`)
    requireRole(turn.role, at)
    requireContent(turn.content, at)
    const peerId = turn.name ?? turn.role
    if (typeof peerId !== 'string' || !ID.test(peerId)) {
      throw new HyMemError('INVALID_INPUT', `${at}name must be 1-256 printable characters`)
    }
    const metadata = requireMetadata(turn.metadata, at)
    const createdAt = requireTime(turn.createdAt, at)
    return {
      peerId,
      role: turn.role,
      content: turn.content,
      ...(metadata ? { metadata } : {}),
      ...(createdAt ? { createdAt } : {}),
    }
  })
}
