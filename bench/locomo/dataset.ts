import { readFileSync } from 'node:fs'

/** One turn of a LoCoMo conversation, ready to be logged as a message. */
export interface LocomoTurn {
  readonly diaId: string
  readonly speaker: string
  readonly text: string
  readonly createdAt: string
  /** The message role; LoCoMo's speakers are both people ('user', the default). */
  readonly role?: 'user' | 'assistant'
}

export interface LocomoSession {
  readonly index: number
  readonly startedAt: string
  readonly turns: readonly LocomoTurn[]
}

/** What the harness needs of a question: its text, a category to report it under, its evidence turns. */
export interface EvalQuestion {
  readonly question: string
  readonly category: number | string
  readonly evidence: readonly string[]
}

export interface LocomoQuestion extends EvalQuestion {
  /** `locomo_<conversation index>_qa<question index>`, the audit's key. */
  readonly id: string
  readonly question: string
  readonly category: number
  /** Normalised, de-duplicated evidence turn ids that exist in the conversation. */
  readonly evidence: readonly string[]
}

export interface LocomoConversation {
  readonly index: number
  readonly sampleId: string
  readonly speakers: readonly [string, string]
  readonly sessions: readonly LocomoSession[]
  readonly questions: readonly LocomoQuestion[]
  /** Questions dropped because none of their evidence ids names a real turn. */
  readonly skippedQuestions: number
}

interface RawTurn {
  speaker: string
  dia_id: string
  text: string
  blip_caption?: string
}
interface RawConversation {
  sample_id: string
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string }
  qa: { question: string; evidence?: unknown[]; category: number }[]
}
interface AuditEntry {
  question_id: string
  error_type: string
  correct_evidence?: string[]
}

/** Month names, lower case, January first. */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]

/** Parses LoCoMo's "1:56 pm on 8 May, 2023" as a UTC time. */
export function parseLocomoDate(text: string): Date {
  const match = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(text)
  if (!match) throw new Error(`unrecognised LoCoMo date: ${text}`)
  const [, hh, mm, ampm, day, monthName, year] = match as unknown as string[]
  const month = MONTHS.indexOf((monthName ?? '').toLowerCase())
  if (month < 0) throw new Error(`unrecognised month in LoCoMo date: ${text}`)
  let hour = Number(hh) % 12
  if ((ampm ?? '').toLowerCase() === 'pm') hour += 12
  return new Date(Date.UTC(Number(year), month, Number(day), hour, Number(mm)))
}

/** "D8:6; D9:17", "D30:05", "D:11:26" → ["D8:6", "D9:17"], ["D30:5"], ["D11:26"]. */
export function normaliseEvidence(raw: readonly unknown[]): string[] {
  const ids: string[] = []
  for (const entry of raw) {
    for (const match of String(entry).matchAll(/D\s*:?\s*(\d+)\s*:\s*(\d+)/g)) {
      ids.push(`D${Number(match[1])}:${Number(match[2])}`)
    }
  }
  return [...new Set(ids)]
}

/** Loads a LoCoMo-format file, applying an audit's corrected citations when given. */
export function loadLocomo(dataPath: string, auditPath?: string): LocomoConversation[] {
  const raw = JSON.parse(readFileSync(dataPath, 'utf8')) as RawConversation[]
  const corrections = new Map<string, string[]>()
  if (auditPath) {
    const audit = JSON.parse(readFileSync(auditPath, 'utf8')) as AuditEntry[]
    for (const entry of audit) {
      if (entry.error_type === 'WRONG_CITATION' && entry.correct_evidence) {
        corrections.set(entry.question_id, entry.correct_evidence)
      }
    }
  }
  return raw.map((conversation, index) => toConversation(conversation, index, corrections))
}

function toConversation(
  raw: RawConversation,
  index: number,
  corrections: Map<string, string[]>,
): LocomoConversation {
  const sessions: LocomoSession[] = []
  for (let n = 1; Array.isArray(raw.conversation[`session_${n}`]); n++) {
    const startedAt = parseLocomoDate(String(raw.conversation[`session_${n}_date_time`]))
    const turns = (raw.conversation[`session_${n}`] as RawTurn[]).map((turn, position) => ({
      diaId: normaliseEvidence([turn.dia_id])[0] ?? turn.dia_id,
      speaker: turn.speaker,
      text: turn.blip_caption ? `${turn.text} [shared an image: ${turn.blip_caption}]` : turn.text,
      createdAt: new Date(startedAt.getTime() + position * 30_000).toISOString(),
    }))
    sessions.push({ index: n, startedAt: startedAt.toISOString(), turns })
  }
  const known = new Set(sessions.flatMap((session) => session.turns.map((turn) => turn.diaId)))
  const questions: LocomoQuestion[] = []
  let skippedQuestions = 0
  raw.qa.forEach((qa, qaIndex) => {
    const id = `locomo_${index}_qa${qaIndex}`
    const evidence = normaliseEvidence(corrections.get(id) ?? qa.evidence ?? []).filter((dia) =>
      known.has(dia),
    )
    if (evidence.length === 0) {
      skippedQuestions++
      return
    }
    questions.push({ id, question: qa.question, category: qa.category, evidence })
  })
  return {
    index,
    sampleId: raw.sample_id,
    speakers: [raw.conversation.speaker_a, raw.conversation.speaker_b],
    sessions,
    questions,
    skippedQuestions,
  }
}
