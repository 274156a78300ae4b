import { isoTimeSchema } from '@hymem/core-store'
import * as v from 'valibot'

/** One message of a capture file, validated. */
export interface CaptureLine {
  readonly sessionId: string
  readonly role?: 'user' | 'assistant' | 'system' | 'tool'
  readonly peerId?: string
  readonly content: string
  readonly createdAt?: string
  readonly metadata?: Record<string, unknown>
}

/**
 * The first problems found (at most 20), each `line N: <what is wrong>` (or `item N` for a JSON array), and
 * how many there were in all.
 */
export type CaptureParseResult =
  | { readonly ok: true; readonly lines: readonly CaptureLine[] }
  | { readonly ok: false; readonly problems: readonly string[]; readonly total: number }

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

const MAX_PROBLEMS = 20

/**
 * Validates a whole capture file before anything is written: JSONL (one object a line, blank lines
 * skipped) or one JSON array of the same objects.
 */
export function parseCapture(text: string): CaptureParseResult {
  const trimmed = text.trimStart()
  if (trimmed.startsWith('[')) return parseArray(trimmed)
  const entries: { label: string; value: unknown }[] = []
  const problems: string[] = []
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return
    const label = `line ${index + 1}`
    try {
      entries.push({ label, value: JSON.parse(raw) })
    } catch (error) {
      problems.push(`${label}: not valid JSON (${(error as Error).message})`)
    }
  })
  return validate(entries, problems)
}

function parseArray(text: string): CaptureParseResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, problems: [`not valid JSON (${(error as Error).message})`], total: 1 }
  }
  if (!Array.isArray(value)) return { ok: false, problems: ['expected a JSON array of messages'], total: 1 }
  return validate(
    value.map((item, index) => ({ label: `item ${index + 1}`, value: item })),
    [],
  )
}

function validate(
  entries: readonly { label: string; value: unknown }[],
  problems: string[],
): CaptureParseResult {
  const lines: CaptureLine[] = []
  for (const { label, value } of entries) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${label}: must be a JSON object`)
      continue
    }
    const result = v.safeParse(LINE_SCHEMA, value)
    if (!result.success) {
      const issue = result.issues[0]
      const key = issue.path?.map((p) => String(p.key)).join('.')
      const message = key && !issue.message.includes(`"${key}"`) ? `"${key}" ${issue.message}` : issue.message
      problems.push(`${label}: ${message}`)
      continue
    }
    const o = result.output
    lines.push({
      sessionId: o.session_id,
      ...(o.role ? { role: o.role } : {}),
      ...(o.peer_id ? { peerId: o.peer_id } : {}),
      content: o.content,
      ...(o.created_at ? { createdAt: o.created_at } : {}),
      ...(o.metadata ? { metadata: o.metadata } : {}),
    })
  }
  if (problems.length > 0) {
    problems.sort((a, b) => lineNumber(a) - lineNumber(b))
    return { ok: false, problems: problems.slice(0, MAX_PROBLEMS), total: problems.length }
  }
  if (lines.length === 0)
    return { ok: false, problems: ['no messages found (expected JSONL or a JSON array)'], total: 1 }
  return { ok: true, lines }
}

function lineNumber(problem: string): number {
  return Number(/^(?:line|item) (\d+)/.exec(problem)?.[1] ?? 0)
}
