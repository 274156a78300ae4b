/**
 * Which BEAM chats an evaluation may read. The development chats are the default; the held-out chats
 * (100K 1–10, 500K 1–5) are refused unless the caller asks for the final check.
 */

/** One chat of BEAM: its size folder and number, `100K/12`. */
export interface ChatRef {
  readonly size: '100K' | '500K'
  readonly number: number
}

const HELD_OUT: Readonly<Record<ChatRef['size'], number>> = { '100K': 10, '500K': 5 }
const LAST: Readonly<Record<ChatRef['size'], number>> = { '100K': 20, '500K': 35 }

/** The development chats: 100K 11–20 and 500K 6–35. */
export const DEV_CHATS = '100K/11-20,500K/6-35'

export function chatName(chat: ChatRef): string {
  return `${chat.size}/${chat.number}`
}

export function isHeldOut(chat: ChatRef): boolean {
  return chat.number <= HELD_OUT[chat.size]
}

/**
 * Parses `100K/11-20,500K/6` into chats, in the order given. Throws on a malformed entry, a chat BEAM
 * does not have, and a held-out chat unless `finalCheck`.
 */
export function parseChats(spec: string, finalCheck: boolean): ChatRef[] {
  const chats: ChatRef[] = []
  for (const entry of spec.split(',').map((part) => part.trim())) {
    const match = /^(100K|500K)\/(\d+)(?:-(\d+))?$/i.exec(entry)
    if (!match) throw new Error(`--chats: "${entry}" is not SIZE/N or SIZE/N-M with SIZE 100K or 500K`)
    const size = (match[1] ?? '').toUpperCase() as ChatRef['size']
    const from = Number(match[2])
    const to = match[3] === undefined ? from : Number(match[3])
    if (from < 1 || to < from || to > LAST[size])
      throw new Error(`--chats: "${entry}" is outside ${size}/1-${LAST[size]}`)
    for (let number = from; number <= to; number++) {
      const chat = { size, number }
      if (isHeldOut(chat) && !finalCheck)
        throw new Error(
          `--chats: ${chatName(chat)} is held out for the final check (100K/1-10, 500K/1-5); develop on ${DEV_CHATS}, or pass --final-check`,
        )
      if (!chats.some((c) => c.size === size && c.number === number)) chats.push(chat)
    }
  }
  return chats
}
