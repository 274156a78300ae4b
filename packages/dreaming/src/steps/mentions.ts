import { normalize, type StoreScope } from '@hymem/core-store'
import { USER_SUBJECT } from './canonical'

const SPEAKER_PREFIX = /^(user|assistant|system|tool): /gm
const GENERIC: ReadonlySet<string> = new Set([USER_SUBJECT, 'team'])

/** The canonical word sequence of a chunk's content (speaker labels and brackets left out). */
export function contentWords(text: string): string[] {
  const folded = normalize(text.replace(SPEAKER_PREFIX, '').replace(/[()[\]{}]/g, ' '))
  return folded === '' ? [] : folded.split('_')
}

/**
 * Finds known entities in chunk text: each canonical name (or alias surface) is matched as a whole-word
 * sequence of the normalized content.
 */
export class MentionMatcher {
  /** First word → (word sequence, canonical) candidates. */
  readonly #byFirst = new Map<string, { words: string[]; canonical: string }[]>()
  readonly #known = new Set<string>()

  add(surface: string, canonical: string): void {
    if (GENERIC.has(canonical) || canonical === '') return
    const key = `${surface}\u0000${canonical}`
    if (this.#known.has(key)) return
    this.#known.add(key)
    const words = surface.split('_').filter((w) => w !== '')
    const first = words[0]
    if (first === undefined) return
    const list = this.#byFirst.get(first) ?? []
    list.push({ words, canonical })
    this.#byFirst.set(first, list)
  }

  has(canonical: string): boolean {
    return this.#known.has(`${canonical}\u0000${canonical}`)
  }

  match(text: string): Set<string> {
    return matchWords(contentWords(text), this.#byFirst)
  }
}

function matchWords(
  words: readonly string[],
  byFirst: Map<string, { words: string[]; canonical: string }[]>,
) {
  const found = new Set<string>()
  for (let i = 0; i < words.length; i++) {
    for (const candidate of byFirst.get(words[i]!) ?? []) {
      if (candidate.words.every((w, k) => words[i + k] === w)) found.add(candidate.canonical)
    }
  }
  return found
}

/** A matcher over every entity the workspace knows: graph subjects and objects, aliases, typed entities. */
export async function loadMentionMatcher(store: StoreScope, workspaceId: string): Promise<MentionMatcher> {
  const matcher = new MentionMatcher()
  for (const e of await store.edges.listDirectEndpoints(workspaceId)) {
    matcher.add(e.subject, e.subject)
    matcher.add(e.object, e.object)
  }
  for (const a of await store.aliases.listAll(workspaceId)) {
    matcher.add(a.surface, a.canonical)
    matcher.add(a.canonical, a.canonical)
  }
  for (const t of await store.entityTypes.listAll(workspaceId)) matcher.add(t.entity, t.entity)
  return matcher
}

/**
 * Finds mentions of `entities` (by canonical name or any alias) in the chunks decay reads (those since
 * `since`), so a topic re-discussed before its entity was first extracted, or under another name, counts.
 * Read-only: the caller records the result with `mentions.add`.
 */
export async function findMentions(
  store: StoreScope,
  workspaceId: string,
  entities: ReadonlySet<string>,
  since: string,
): Promise<Map<number, Set<string>>> {
  const found = new Map<number, Set<string>>()
  if (entities.size === 0) return found
  const local = new MentionMatcher()
  for (const e of entities) local.add(e, e)
  for (const a of await store.aliases.listAll(workspaceId))
    if (entities.has(a.canonical)) local.add(a.surface, a.canonical)
  for (const chunk of await store.chunks.listSince(workspaceId, since)) {
    const hits = local.match(chunk.text)
    if (hits.size > 0) found.set(chunk.id, hits)
  }
  return found
}
