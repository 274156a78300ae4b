import { isoTimeSchema } from '@hymem/core-store'
import * as v from 'valibot'
import type { RawEntry } from './capture-entries'

/** One message of a capture file, validated. */
export interface CaptureLine {
  readonly sessionId: string
  readonly role?: 'user' | 'assistant' | 'system' | 'tool'
  readonly peerId?: string
  readonly content: string
  readonly createdAt?: string
  readonly metadata?: Record<string, unknown>
}

const ROLES = ['user', 'assistant', 'system', 'tool'] as const

const nonEmpty = (what: string) =>
  v.pipe(v.string(`${what} must be a string`), v.trim(), v.nonEmpty(`${what} must not be empty`))

const LINE_SCHEMA = v.pipe(
  v.object(
    {
      session_id: nonEmpty('"session_id"'),
      role: v.optional(v.picklist(ROLES, `"role" must be one of ${ROLES.join(', ')}`)),
      peer_id: v.optional(nonEmpty('"peer_id"')),
      content: v.pipe(v.string('"content" must be a string'), v.nonEmpty('"content" must not be empty')),
      created_at: v.optional(v.pipe(v.string('"created_at" must be a string'), isoTimeSchema)),
      metadata: v.optional(v.record(v.string(), v.unknown(), '"metadata" must be an object')),
    },
    (issue) => (issue.input === undefined ? `missing ${String(issue.expected)}` : 'must be a JSON object'),
  ),
  v.check((line) => line.role !== undefined || line.peer_id !== undefined, 'needs "role" or "peer_id"'),
)

/**
 * Validates one entry of a capture file: the message, or the problem as `line N: <what is wrong>` (or
 * `item N` in a JSON array).
 */
export function checkCaptureEntry(entry: RawEntry): CaptureLine | string {
  const { label } = entry
  if ('problem' in entry) return `${label}: ${entry.problem}`
  let value: unknown
  try {
    value = JSON.parse(entry.text)
  } catch (error) {
    return `${label}: not valid JSON (${(error as Error).message})`
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `${label}: must be a JSON object`
  }
  const result = v.safeParse(LINE_SCHEMA, value)
  if (!result.success) {
    const issue = result.issues[0]
    const key = issue.path?.map((p) => String(p.key)).join('.')
    const message = key && !issue.message.includes(`"${key}"`) ? `"${key}" ${issue.message}` : issue.message
    return `${label}: ${message}`
  }
  const o = result.output
  return {
    sessionId: o.session_id,
    ...(o.role ? { role: o.role } : {}),
    ...(o.peer_id ? { peerId: o.peer_id } : {}),
    content: o.content,
    ...(o.created_at ? { createdAt: o.created_at } : {}),
    ...(o.metadata ? { metadata: o.metadata } : {}),
  }
}
