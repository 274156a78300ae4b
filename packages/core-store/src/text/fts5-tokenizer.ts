import { _charsOf, INDIC_MARKS } from './scripts'

/**
 * The FTS5 tokenizer of HyMem's full-text tables since migration 8: Porter stemming over `unicode61` with
 * diacritics folded, keeping the Indic combining marks inside words (`tokenizeForFts` splits the same way).
 */
export const FTS5_TOKENIZE = `porter unicode61 remove_diacritics 2 tokenchars '${_charsOf(INDIC_MARKS)}'`
