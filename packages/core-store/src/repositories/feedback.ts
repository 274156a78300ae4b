import type { RepositoryScope } from './scope'

/** Extraction feedback (`extraction_feedback`): retracted triples fed back to extractors as negative examples. */
// biome-ignore lint/suspicious/noEmptyInterface: methods are added as callers move off raw SQL
export interface FeedbackRepository {}

export function createFeedbackRepository(_scope: RepositoryScope): FeedbackRepository {
  return {}
}
