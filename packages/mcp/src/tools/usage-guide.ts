import { z } from 'zod'
import { defineTool, type ToolDefinition } from './define-tool'
import type { ToolContext } from './tool-context'
import { toolResult } from './tool-context'

export const GUIDE_SECTIONS = ['claude_md', 'setup', 'session'] as const
export type GuideSection = (typeof GUIDE_SECTIONS)[number]

/** How the server was started, for the guide's set-up section and warnings. */
export interface GuideSettings {
  readonly transport: 'stdio' | 'http'
  /** True when the workspace came from the server default rather than a header or flag. */
  readonly defaultWorkspace: boolean
  readonly httpUrl?: string
}

/**
 * Builds `hymem_usage_guide`. It describes the tools that are really registered and the settings really in
 * force, so the instructions an agent copies into CLAUDE.md never drift from the server.
 */
export function createUsageGuideTool(tools: () => readonly ToolDefinition[], settings: GuideSettings) {
  return defineTool({
    name: 'hymem_usage_guide',
    title: 'Usage guide',
    description:
      "Generates instructions for using HyMem from this server's live settings: a CLAUDE.md / system-prompt section (claude_md), how to register the server (setup), and what to do in each conversation (session). Write the claude_md section into the project's CLAUDE.md.",
    inputSchema: {
      section: z.enum(GUIDE_SECTIONS).optional().describe('Only this section (default: all).'),
    },
    readOnly: true,
    async handle(args, context) {
      const guide = buildGuide(tools(), settings, context)
      const chosen = args.section ? { [args.section]: guide[args.section] } : guide.sections
      const text = Object.entries(chosen)
        .map(([name, body]) => `=== ${name} ===\n${body}`)
        .concat(guide.warnings.length > 0 ? [`=== warnings ===\n${guide.warnings.join('\n')}`] : [])
        .join('\n\n')
      return toolResult(text, { ...chosen, warnings: guide.warnings })
    },
  })
}

function buildGuide(tools: readonly ToolDefinition[], settings: GuideSettings, context: ToolContext) {
  const { memory, workspaceId } = context
  const names = new Set(tools.map((tool) => tool.name))
  const toolLines = tools.map(
    (tool) => `- \`${tool.name}\`: ${tool.description.split('. ')[0]?.replace(/\.$/, '')}.`,
  )
  const claude_md = [
    '## Memory (HyMem)',
    '',
    `This project has long-term memory through the HyMem MCP server (workspace \`${workspaceId}\`).`,
    '',
    ...(names.has('hymem_profile')
      ? ['- At the start of a conversation, call `hymem_profile` and follow the preferences it lists.']
      : []),
    ...(names.has('hymem_augment')
      ? [
          '- Before answering a user message that may depend on the past, call `hymem_augment` with the message.',
        ]
      : []),
    ...(names.has('hymem_capture')
      ? ['- At the end of a conversation (or every ~10 turns), call `hymem_capture` with the new turns.']
      : []),
    ...(names.has('hymem_remember')
      ? ['- When the user states a decision, convention or value worth keeping, call `hymem_remember`.']
      : []),
    ...(names.has('hymem_retract')
      ? ['- If a recalled fact is wrong, call `hymem_retract` with its triple.']
      : []),
    '',
    'Tools:',
    ...toolLines,
  ].join('\n')
  const setup =
    settings.transport === 'http'
      ? [
          'Streamable HTTP:',
          `  claude mcp add --transport http hymem ${settings.httpUrl ?? 'http://127.0.0.1:8765/mcp'} --header "X-HyMem-Workspace: <project>"`,
          'Set X-HyMem-Workspace per project (in a project-scoped .mcp.json) so projects never share memory.',
        ].join('\n')
      : [
          'stdio:',
          '  claude mcp add hymem -- hymem mcp --workspace <project>',
          'or in .mcp.json: {"mcpServers": {"hymem": {"command": "hymem", "args": ["mcp", "--workspace", "<project>"]}}}',
        ].join('\n')
  const session = [
    '1. hymem_profile once, at the start.',
    '2. hymem_augment before answering anything that may depend on earlier conversations.',
    '3. hymem_capture the new turns at the end (dream=true if the next conversation starts soon).',
    `Extraction runs with ${memory.extractor.name}; vector search ${memory.embeddings ? `uses ${memory.embeddings.name}` : 'is off (keyword + graph only)'}.`,
  ].join('\n')
  const warnings: string[] = []
  if (settings.defaultWorkspace) {
    warnings.push(
      settings.transport === 'http'
        ? `No X-HyMem-Workspace header: this connection uses the server default workspace "${workspaceId}", shared by every project that does the same.`
        : `No --workspace flag: this server uses the default workspace "${workspaceId}", shared by every project that does the same.`,
    )
  }
  if (memory.extractor.name === 'rules') {
    warnings.push(
      'No LLM is configured: facts are extracted by the rule-based extractor (set HYMEM_LLM_API_KEY for richer memory).',
    )
  }
  return { sections: { claude_md, setup, session }, claude_md, setup, session, warnings }
}
