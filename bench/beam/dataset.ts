import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type EvalQuestion, type LocomoSession, type LocomoTurn, MONTHS } from '../locomo/dataset'
import { type ChatRef, chatName } from './chats'

/** A BEAM probing question with evidence, in the harness's shape (`category` is BEAM's ability). */
export interface BeamQuestion extends EvalQuestion {
  /** `<chat>/<ability>/<index>`, e.g. `100K/12/event_ordering/1`. */
  readonly id: string
  readonly category: string
  /** BEAM's own difficulty label (easy, medium, hard, clear, ...); `unlabelled` when missing. */
  readonly difficulty: string
}

/** One BEAM chat as sessions of turns (one session per generation batch) and its questions. */
export interface BeamChat {
  /** `100K/12`. */
  readonly sampleId: string
  readonly sessions: readonly LocomoSession[]
  readonly questions: readonly BeamQuestion[]
  /** Abstention questions (no evidence by design): counted, never scored. */
  readonly abstentions: number
  /** Other questions without an evidence id that names a message of the chat. */
  readonly skippedQuestions: number
}

interface RawMessage {
  id: number
  role: string
  content: string
  time_anchor?: string
}
interface RawBatch {
  batch_number: number
  time_anchor?: string
  turns: (RawMessage | RawMessage[])[]
}
interface RawQuestion {
  question?: string
  difficulty?: string
  source_chat_ids?: unknown
}

const DAY_MS = 86_400_000
/** Turns within a batch are a minute apart (BEAM dates only the batch). */
const TURN_GAP_MS = 60_000

/** The chats folder inside `folder`: BEAM's repository root, or its `chats` folder itself. */
export function chatsFolder(folder: string): string {
  const nested = join(folder, 'chats')
  if (existsSync(join(nested, '100K')) || existsSync(join(nested, '500K'))) return nested
  if (existsSync(join(folder, '100K')) || existsSync(join(folder, '500K'))) return folder
  throw new Error(`no BEAM chats under ${folder}: expected ${folder}/chats/100K or ${folder}/100K`)
}

/** BEAM's "March-15-2024" as UTC midnight; null when it is not such a date. */
export function parseTimeAnchor(text: string | undefined): Date | null {
  const match = /^([A-Za-z]+)-(\d{1,2})-(\d{4})$/.exec((text ?? '').trim())
  if (!match) return null
  const month = MONTHS.indexOf((match[1] ?? '').toLowerCase())
  return month < 0 ? null : new Date(Date.UTC(Number(match[3]), month, Number(match[2])))
}

/** Removes the generator's plan markers (`->-> 1,3`): not part of what was said. */
export function stripPlanMarkers(text: string): string {
  return text
    .replace(/\s*->->\s*\d+(?:\s*,\s*\d+)*/g, '')
    .replace(/\s*->->\s*$/, '')
    .trim()
}

/** Every message id named in `source_chat_ids`, whatever its shape (list, list of lists, object). */
export function flattenSourceIds(raw: unknown): number[] {
  const ids: number[] = []
  const visit = (value: unknown) => {
    if (typeof value === 'number' && Number.isInteger(value)) ids.push(value)
    else if (typeof value === 'string' && /^\d+$/.test(value.trim())) ids.push(Number(value))
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value && typeof value === 'object') Object.values(value).forEach(visit)
  }
  visit(raw)
  return [...new Set(ids)]
}

/** The turn id of a message: `D<batch>:<BEAM message id>` (so a turn's session is its batch). */
export function turnId(batch: number, messageId: number): string {
  return `D${batch}:${messageId}`
}

/**
 * Loads one chat: `chat_trunecated.json` (sic) when present, as BEAM's own pipeline does, else `chat.json`;
 * then its probing questions, with evidence mapped to turn ids.
 */
export function loadBeamChat(chats: string, chat: ChatRef): BeamChat {
  const dir = join(chats, chat.size, String(chat.number))
  const truncated = join(dir, 'chat_trunecated.json')
  const batches = readJson<RawBatch[]>(existsSync(truncated) ? truncated : join(dir, 'chat.json'))
  const sessions = toSessions(batches)
  const turnOf = new Map<number, string>()
  for (const session of sessions)
    for (const turn of session.turns) turnOf.set(Number(turn.diaId.split(':')[1]), turn.diaId)
  const raw = readJson<Record<string, RawQuestion[]>>(
    join(dir, 'probing_questions', 'probing_questions.json'),
  )
  const questions: BeamQuestion[] = []
  let abstentions = 0
  let skippedQuestions = 0
  for (const [ability, list] of Object.entries(raw)) {
    list.forEach((question, index) => {
      if (ability === 'abstention') {
        abstentions++
        return
      }
      const evidence = flattenSourceIds(question.source_chat_ids).flatMap((id) => turnOf.get(id) ?? [])
      if (evidence.length === 0 || !question.question) {
        skippedQuestions++
        return
      }
      questions.push({
        id: `${chatName(chat)}/${ability}/${index}`,
        question: question.question,
        category: ability,
        difficulty: question.difficulty?.trim() || 'unlabelled',
        evidence,
      })
    })
  }
  return { sampleId: chatName(chat), sessions, questions, abstentions, skippedQuestions }
}

function toSessions(batches: readonly RawBatch[]): LocomoSession[] {
  let previous: Date | null = null
  return batches.map((batch) => {
    const messages = batch.turns.flatMap((group) => (Array.isArray(group) ? group : [group]))
    const anchor =
      parseTimeAnchor(batch.time_anchor) ??
      parseTimeAnchor(messages.find((m) => m.time_anchor)?.time_anchor) ??
      new Date((previous?.getTime() ?? Date.UTC(2024, 0, 1) - 7 * DAY_MS) + 7 * DAY_MS)
    previous = anchor
    const turns: LocomoTurn[] = messages.flatMap((message, position) => {
      const text = stripPlanMarkers(String(message.content ?? ''))
      const role = message.role === 'assistant' ? 'assistant' : 'user'
      if (!text) return []
      return [
        {
          diaId: turnId(batch.batch_number, message.id),
          speaker: role,
          role,
          text,
          createdAt: new Date(anchor.getTime() + position * TURN_GAP_MS).toISOString(),
        },
      ]
    })
    return { index: batch.batch_number, startedAt: anchor.toISOString(), turns }
  })
}

function readJson<T>(path: string): T {
  if (!existsSync(path)) throw new Error(`missing BEAM file ${path}`)
  return JSON.parse(readFileSync(path, 'utf8')) as T
}
