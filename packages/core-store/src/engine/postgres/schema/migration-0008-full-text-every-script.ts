import {
  _postgresCharClass,
  DROPPED_MARKS,
  HAN_KANA,
  SOUTHEAST_ASIAN,
  WIDE_PUNCTUATION,
} from '../../../text/scripts'
import type { PostgresMigrationStep } from './migration-step'

const SEARCHED: readonly (readonly [table: string, text: string])[] = [
  ['messages', 'content'],
  ['chunks', 'text'],
  ['episodes', "title || ' ' || summary"],
  ['procedures', "name || ' ' || description || ' ' || steps_text"],
  ['notes', "description || ' ' || content"],
]

/** `hymem_fts_text` as migration 8 defines it (also what `fullText.rebuild()` restores). */
export const POSTGRES_FTS_TEXT_FUNCTION = `CREATE OR REPLACE FUNCTION hymem_fts_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(regexp_replace(regexp_replace(
    translate(left(value, 100000), '!"#$%&''()*+,-./:;<=>?@[\\]^_\`{|}~', '                                '),
    '${_postgresCharClass(DROPPED_MARKS)}', '', 'g'),
    '${_postgresCharClass(WIDE_PUNCTUATION)}', ' ', 'g'),
    '${_postgresCharClass([...HAN_KANA, ...SOUTHEAST_ASIAN])}', ' \\& ', 'g');`

/**
 * As SQLite's migration 8: `hymem_fts_text` becomes JavaScript's `fullTextIndexText` in SQL (marks dropped,
 * non-ASCII punctuation spaced out, every character of an unspaced script a word of its own) after the ASCII
 * punctuation it already spaced out, and every `fts` column is generated again from it, one table a step
 * ({@link POSTGRES_MIGRATION_0008_STEPS}).
 */
export const POSTGRES_MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT = `
${SEARCHED.map(([table]) => `ALTER TABLE ${table} DROP COLUMN fts;`).join('\n')}

${POSTGRES_FTS_TEXT_FUNCTION}
`

/** Each table's `fts` generated again over its rows, and its GIN index. */
export const POSTGRES_MIGRATION_0008_STEPS: readonly PostgresMigrationStep[] = SEARCHED.map(
  ([table, text]) => ({
    table,
    sql: `ALTER TABLE ${table} ADD COLUMN fts tsvector
  GENERATED ALWAYS AS (to_tsvector('hymem_english', hymem_fts_text(${text}))) STORED;
CREATE INDEX ${table}_fts ON ${table} USING gin (fts);`,
  }),
)
