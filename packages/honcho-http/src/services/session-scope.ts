import { HonchoHttpError } from '../errors'
import type { HonchoMemory } from '../types'

export interface SessionScopeInput {
  readonly sessionId?: string | null | undefined
  readonly filters?: { session_id?: string | string[] | { in: string[] } | undefined } | null | undefined
  readonly scope?: string | string[] | null | undefined
}

/**
 * The sessions a chat or representation may read: `undefined` = all. `scope` (one scope or a list, as the
 * union of their member sessions) is exclusive with `filters` and `session_id`; a `session_id` given with
 * `filters` must be in the list.
 */
export async function resolveSessionScope(
  memory: HonchoMemory,
  workspaceId: string,
  input: SessionScopeInput,
): Promise<string[] | undefined> {
  const filterValue = input.filters?.session_id
  const listed =
    filterValue === undefined
      ? undefined
      : typeof filterValue === 'string'
        ? [filterValue]
        : Array.isArray(filterValue)
          ? filterValue
          : filterValue.in
  if (input.scope) {
    if (listed || input.sessionId) {
      throw new HonchoHttpError('VALIDATION', 'scope cannot be combined with filters or session_id')
    }
    const scopes = typeof input.scope === 'string' ? [input.scope] : input.scope
    return memory.scopes.sessionIds(workspaceId, scopes)
  }
  if (listed) {
    if (input.sessionId && !listed.includes(input.sessionId)) {
      throw new HonchoHttpError(
        'VALIDATION',
        `session_id ${input.sessionId} must be one of filters.session_id`,
      )
    }
    return input.sessionId ? [input.sessionId] : [...listed]
  }
  return input.sessionId ? [input.sessionId] : undefined
}
