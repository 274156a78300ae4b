import { _dataBlock, UNTRUSTED_NOTICE } from './untrusted'

const SYSTEM = `You find step-by-step workflows described in a conversation (e.g. how to deploy to staging, how to cut a release).

Return ONE JSON object and nothing else:
{"procedures":[{"name":"...","description":"...","trigger":"...","steps":[{"order":1,"text":"...","tool":"..."}],"entities":["..."]}]}

- Only workflows with at least two concrete, ordered steps that the user or team actually follows.
- name: a short imperative name ("Deploy to staging").
- trigger: when the workflow is used, or null.
- steps: in execution order, numbered from 1; tool is the command or tool used in the step, or null.
- entities: tools, services and projects involved.
Return {"procedures":[]} when there is none. ${UNTRUSTED_NOTICE}`

/** Builds the procedure prompt. */
export function buildProceduresPrompt(input: { text: string }): { system: string; user: string } {
  return { system: SYSTEM, user: `Extract the procedures.\n\n${_dataBlock('chat_log', input.text)}` }
}
