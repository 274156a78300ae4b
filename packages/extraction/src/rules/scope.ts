/** Subject token for "you" when the turn has an addressee; the speaker mapping resolves it. */
export const ADDRESSEE = '@addressee'
/** Subject token for an inclusive "we" ("we both", "all of us"): every human author of the chunk. */
export const EVERYONE = '@everyone'

/**
 * What the pronouns and names of one turn may stand for. Without a scope the rules know only the speaker
 * (`user`, `team`), exactly as for plain text.
 */
export interface SubjectScope {
  /** "you" stands for the addressee ({@link ADDRESSEE}). */
  readonly addressee: boolean
  /** Lower-case names, aliases and ids of peers: people who may be subjects the way the speaker is. */
  readonly people: ReadonlySet<string>
}

/** True for the speaker, the addressee, everyone, and (with a scope) a named peer. */
export function isPerson(subject: string, scope: SubjectScope | undefined): boolean {
  if (subject === 'user' || subject === 'team') return true
  if (scope === undefined) return false
  return subject === ADDRESSEE || subject === EVERYONE || scope.people.has(subject.toLowerCase())
}
