/**
 * The standing-rule cue grew ("I prioritise X over Y", "my preference is", "I'd rather"): progress is cleared so
 * every session is read once more and the rules it already held are found (first mentions are kept, not
 * duplicated).
 */
export const MIGRATION_0013_RULES_REREAD = `
DELETE FROM topic_progress;
`
