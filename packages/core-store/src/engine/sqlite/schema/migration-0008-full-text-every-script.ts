import { FTS5_TOKENIZE } from '../../../text/fts5-tokenizer'
import type { FullTextIndexed } from '../full-text-fill'

/** The tables migration 8 reindexes, as they were then (passages came with migration 10). */
export const MIGRATION_0008_INDEXED: readonly FullTextIndexed[] = [
  { table: 'messages', rowid: 'id', columns: ['content'] },
  { table: 'chunks', rowid: 'id', columns: ['text'] },
  { table: 'episodes', rowid: 'rowid', columns: ['title', 'summary'] },
  { table: 'procedures', rowid: 'rowid', columns: ['name', 'description', 'steps_text'] },
  { table: 'notes', rowid: 'rowid', columns: ['description', 'content'] },
]

function reindexed({ table, rowid, columns }: FullTextIndexed): string {
  const fts = `${table}_fts`
  const indexed = (row: string) => columns.map((column) => `hymem_fts_text(${row}.${column})`).join(', ')
  const list = columns.join(', ')
  return `
DROP TRIGGER ${fts}_insert;
DROP TRIGGER ${fts}_delete;
DROP TRIGGER ${fts}_update;
DROP TABLE ${fts};
CREATE VIRTUAL TABLE ${fts} USING fts5(
  ${list}, content='', contentless_delete=1, tokenize="${FTS5_TOKENIZE}"
);
CREATE TRIGGER ${fts}_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts}(rowid, ${list}) VALUES (new.${rowid}, ${indexed('new')});
END;
CREATE TRIGGER ${fts}_delete AFTER DELETE ON ${table} BEGIN
  DELETE FROM ${fts} WHERE rowid = old.${rowid};
END;
CREATE TRIGGER ${fts}_update AFTER UPDATE OF ${list} ON ${table} BEGIN
  DELETE FROM ${fts} WHERE rowid = old.${rowid};
  INSERT INTO ${fts}(rowid, ${list}) VALUES (new.${rowid}, ${indexed('new')});
END;`
}

/**
 * Full text in every script: each FTS5 table is rebuilt over `hymem_fts_text(...)` of its columns (unspaced
 * scripts one character a word, see `fullTextIndexText`; registered on every connection by `openStore`),
 * with Indic marks kept inside words. The tables become contentless with `contentless_delete`, so a row is
 * removed by its rowid alone and a later change of the index text can never leave stale terms behind. The
 * rows already stored are indexed by the migration's steps ({@link MIGRATION_0008_INDEXED}), in batches that
 * report progress.
 */
export const MIGRATION_0008_FULL_TEXT_EVERY_SCRIPT = MIGRATION_0008_INDEXED.map(reindexed).join('\n')
