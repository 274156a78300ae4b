import type { Kysely } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { HyMemDatabase } from '../kernel/tables'
import type { StoreScope } from './types'

/** A scope as core-store builds it: the public scope plus the kysely builder it runs on. */
export type ScopeWithBuilder = StoreScope & { readonly db: Kysely<HyMemDatabase> }

/**
 * core-store's own view of a scope: the kysely builder on that scope's connection (inside a transaction: that
 * transaction). Not exported from the package index: the layers above use repositories.
 */
export function builderOf(scope: StoreScope): Kysely<HyMemDatabase> {
  const db = (scope as { readonly db?: Kysely<HyMemDatabase> }).db
  if (!db)
    throw new StoreError('INVALID_INPUT', 'not a store or transaction scope opened by @hymem/core-store')
  return db
}
