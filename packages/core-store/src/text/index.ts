export type { MatchQueryOptions } from './match-query'
export { buildMatchQuery, DEFAULT_MAX_TERMS } from './match-query'
export { ENGLISH_STOP_WORDS } from './stop-words'
export { tokenizeForFts } from './tokenize'
