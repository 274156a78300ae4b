/**
 * Version of the whole prompt set. Dreaming processes each chunk once per version, so bump it whenever a
 * prompt or parser change should reprocess old chunks.
 */
export const PROMPT_VERSION = 'hymem-prompts-v1'
