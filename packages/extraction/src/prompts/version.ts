/**
 * Version of the whole prompt set. Dreaming processes each chunk once per version, so bump it whenever a
 * prompt or parser change should reprocess old chunks. The LLM response cache is keyed on the prompt text
 * itself, so a changed prompt never reuses an answer to the old one.
 *
 * v2: speaker-labelled chunks (peer ids as subjects, pronouns resolved against the speakers, markers per peer).
 * v3: names and evidence stay in the language and script of the log.
 */
export const PROMPT_VERSION = 'hymem-prompts-v3'
