import type { RepositoryScope } from '../repositories/scope'
import type { Repositories } from './repositories'

/**
 * Per-engine replacements for repositories (or single methods) whose SQL is engine-specific: each entry
 * gets the scope and the portable repository, and returns the repository to use, usually
 * `{ ...portable, method: backendSpecificMethod }`.
 */
export type RepositoryOverrides = {
  readonly [K in keyof Repositories]?: (scope: RepositoryScope, portable: Repositories[K]) => Repositories[K]
}

/** Applies `overrides` on top of the portable repositories. */
export function _applyRepositoryOverrides(
  repositories: Repositories,
  scope: RepositoryScope,
  overrides: RepositoryOverrides,
): Repositories {
  const out: Record<string, unknown> = { ...repositories }
  for (const [name, override] of Object.entries(overrides) as [
    keyof Repositories,
    (scope: RepositoryScope, portable: unknown) => unknown,
  ][]) {
    out[name] = override(scope, repositories[name])
  }
  return out as unknown as Repositories
}
