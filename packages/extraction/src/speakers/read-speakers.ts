import { ExtractionError } from '../errors'
import type { KnownPeer, SpeakerTurn, TurnRole } from './types'

const TURN_ROLES: ReadonlySet<string> = new Set<TurnRole>(['user', 'assistant', 'system', 'tool'])

/** Words that are pronouns or the extractors' own speaker names, never a peer's name in the text. */
const RESERVED = new Set([
  'i',
  'me',
  'my',
  'we',
  'us',
  'our',
  'you',
  'he',
  'she',
  'they',
  'it',
  'user',
  'team',
])

/** Who speaks in a chunk and who the text may name, as the extractors read it. */
export interface ChunkSpeakers {
  /** The validated turns, in order; empty when only a registry was given. */
  readonly turns: readonly SpeakerTurn[]
  /** Peer ids of the human (role `user`) authors, in order of their first turn. */
  readonly humans: readonly string[]
  /** Peer ids of every author, in order of their first turn. */
  readonly participants: readonly string[]
  /** Lower-case names, aliases and ids that stand for exactly one peer. */
  readonly names: ReadonlySet<string>
  /** The peer a surface form names (case-insensitive), or undefined when none or several. */
  peerNamed(surface: string): string | undefined
  /** The peer's name: a turn's `name`, else the registry name; undefined when it has none. */
  nameOf(peerId: string): string | undefined
  /**
   * Who "you" is in `author`'s turns: the other participant when the chunk has exactly two and that one is
   * human. An agent addressed as "you" is left alone: what people tell an assistant about itself is an
   * instruction (a style marker), not a fact about a peer.
   */
  addresseeOf(author: string): string | undefined
}

function fail(message: string): never {
  throw new ExtractionError('INVALID_INPUT', message)
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x)
}

function requireText(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') fail(`${where} must be a non-empty string`)
  return value.trim()
}

function optionalText(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string') fail(`${where} must be a string when given`)
  return value.trim() || undefined
}

function readTurn(raw: unknown, index: number): SpeakerTurn {
  const where = `turns[${index}]`
  if (!isRecord(raw)) fail(`${where} must be an object { peerId, role, text, name? }`)
  const role = raw.role
  if (typeof role !== 'string' || !TURN_ROLES.has(role))
    fail(`${where}.role must be one of ${[...TURN_ROLES].join(', ')}`)
  if (typeof raw.text !== 'string') fail(`${where}.text must be a string`)
  const name = optionalText(raw.name, `${where}.name`)
  return {
    peerId: requireText(raw.peerId, `${where}.peerId`),
    role: role as TurnRole,
    text: raw.text,
    ...(name ? { name } : {}),
  }
}

function readPeer(raw: unknown, index: number): KnownPeer {
  const where = `peers[${index}]`
  if (!isRecord(raw)) fail(`${where} must be an object { id, name?, aliases? }`)
  const name = optionalText(raw.name, `${where}.name`)
  const aliases = raw.aliases
  if (aliases !== undefined && !(Array.isArray(aliases) && aliases.every((a) => typeof a === 'string')))
    fail(`${where}.aliases must be an array of strings when given`)
  return {
    id: requireText(raw.id, `${where}.id`),
    ...(name ? { name } : {}),
    ...(aliases ? { aliases } : {}),
  }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}

/** Surface form → peer id; a form claimed by two peers, or a reserved word, names nobody. */
function nameIndex(peers: readonly KnownPeer[], turns: readonly SpeakerTurn[]): Map<string, string> {
  const claims = new Map<string, Set<string>>()
  const claim = (surface: string | undefined, id: string) => {
    const key = surface?.trim().toLowerCase().replace(/\s+/g, ' ')
    if (!key || RESERVED.has(key)) return
    const ids = claims.get(key) ?? new Set<string>()
    ids.add(id)
    claims.set(key, ids)
  }
  for (const peer of peers) {
    claim(peer.id, peer.id)
    claim(peer.name, peer.id)
    for (const alias of peer.aliases ?? []) claim(alias, peer.id)
  }
  for (const turn of turns) {
    claim(turn.peerId, turn.peerId)
    claim(turn.name, turn.peerId)
  }
  const index = new Map<string, string>()
  for (const [key, ids] of claims) if (ids.size === 1) index.set(key, [...ids][0] as string)
  return index
}

/**
 * Validates the speaker labels of an extraction input. Returns undefined when the input has neither
 * `turns` nor `peers` (plain text: the speaker stays `user`). Bad input throws `ExtractionError`
 * `INVALID_INPUT` naming the field.
 */
export function readSpeakers(input: { turns?: unknown; peers?: unknown }): ChunkSpeakers | undefined {
  if (input.turns === undefined && input.peers === undefined) return undefined
  if (input.turns !== undefined && !Array.isArray(input.turns)) fail('turns must be an array when given')
  if (input.peers !== undefined && !Array.isArray(input.peers)) fail('peers must be an array when given')
  const turns = ((input.turns ?? []) as unknown[]).map(readTurn)
  const peers = ((input.peers ?? []) as unknown[]).map(readPeer)
  const index = nameIndex(peers, turns)
  const registryName = new Map(peers.flatMap((p) => (p.name ? [[p.id, p.name] as const] : [])))
  const turnName = new Map<string, string>()
  for (const t of turns) if (t.name && !turnName.has(t.peerId)) turnName.set(t.peerId, t.name)
  const participants = unique(turns.map((t) => t.peerId))
  const humans = unique(turns.filter((t) => t.role === 'user').map((t) => t.peerId))
  return {
    turns,
    humans,
    participants,
    names: new Set(index.keys()),
    peerNamed: (surface) => index.get(surface.trim().toLowerCase().replace(/\s+/g, ' ')),
    nameOf: (peerId) => turnName.get(peerId) ?? registryName.get(peerId),
    addresseeOf(author) {
      if (participants.length !== 2 || !participants.includes(author)) return undefined
      const other = participants.find((p) => p !== author)
      return other !== undefined && humans.includes(other) ? other : undefined
    },
  }
}

/** The chunk text the way dreaming renders a chunk today: one `role: content` line per turn. */
export function renderTurns(turns: readonly Pick<SpeakerTurn, 'role' | 'text'>[]): string {
  return turns.map((t) => `${t.role}: ${t.text.trim()}`).join('\n')
}
