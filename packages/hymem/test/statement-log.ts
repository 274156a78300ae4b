import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { vector } from '@electric-sql/pglite-pgvector'

/** A PGlite whose SQL statements (simple and extended protocol) are recorded while `recording` is on. */
export interface RecordingPglite {
  readonly pglite: PGlite
  recording: boolean
  readonly statements: string[]
  close(): Promise<void>
}

/**
 * A PGlite (with pgvector and unaccent) that records every statement HyMem sends it: the text of each
 * Query ('Q') and Parse ('P') message of the wire protocol, which is what every pg client query becomes.
 */
export async function recordingPglite(): Promise<RecordingPglite> {
  const pglite = await PGlite.create({ extensions: { vector, unaccent } })
  const state = { recording: false, statements: [] as string[] }
  const exec = pglite.execProtocolStream.bind(pglite)
  pglite.execProtocolStream = (message, options) => {
    if (state.recording) state.statements.push(...statementsIn(message))
    return exec(message, options)
  }
  return {
    pglite,
    get recording() {
      return state.recording
    },
    set recording(on: boolean) {
      state.recording = on
    },
    statements: state.statements,
    close: () => pglite.close(),
  }
}

const decoder = new TextDecoder()

/** The SQL of the Query and Parse messages in a buffer of frontend protocol messages. */
export function statementsIn(message: Uint8Array): string[] {
  const view = new DataView(message.buffer, message.byteOffset, message.byteLength)
  const out: string[] = []
  let at = 0
  while (at + 5 <= message.length) {
    const type = String.fromCharCode(message[at]!)
    const length = view.getInt32(at + 1)
    const body = message.subarray(at + 5, at + 1 + length)
    if (type === 'Q') out.push(cString(body, 0).text)
    if (type === 'P') out.push(cString(body, cString(body, 0).next).text)
    at += 1 + length
  }
  return out
}

function cString(bytes: Uint8Array, from: number): { text: string; next: number } {
  const end = bytes.indexOf(0, from)
  return { text: decoder.decode(bytes.subarray(from, end)), next: end + 1 }
}
