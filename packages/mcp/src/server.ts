import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { maskSecrets } from 'hymem'
import type { McpMemory } from './memory'
import { CORE_TOOLS } from './tools'
import type { ToolDefinition } from './tools/define-tool'
import { toolError } from './tools/tool-context'
import { createUsageGuideTool, type GuideSettings } from './tools/usage-guide'

export const SERVER_NAME = 'hymem'
export const SERVER_VERSION = '0.1.0'

export interface McpServerOptions {
  readonly memory: McpMemory
  /**
   * The workspace every tool call of this server reads and writes. Tools take no workspace argument, so a
   * connection can never reach another workspace. @default memory.workspaceId
   */
  readonly workspaceId?: string
  /** Which transport the server is served over, for the usage guide. @default 'stdio' */
  readonly transport?: GuideSettings['transport']
  readonly httpUrl?: string
  /**
   * After a successful write (capture, log, remember, alias, retract), ask the memory for a background
   * dream (`scheduleDream`: its cooldown, on its dream worker when it has one). @default true
   */
  readonly backgroundDreaming?: boolean
}

/**
 * Builds the HyMem MCP server: the walkthrough's seven tools, the explicit-memory tools, the usage guide,
 * and USER.md / MEMORY.md as resources. Connect it to any transport.
 *
 * @example
 * const server = createMcpServer({ memory: await createHyMem() })
 * await server.connect(new StdioServerTransport())
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { memory } = options
  const workspaceId = options.workspaceId ?? memory.workspaceId
  const context = { memory, workspaceId }
  const backgroundDreaming = options.backgroundDreaming ?? true
  const server = new McpServer(
    { name: SERVER_NAME, version: SERVER_VERSION },
    { instructions: 'Call hymem_usage_guide for how to use this memory server.' },
  )
  const settings: GuideSettings = {
    transport: options.transport ?? 'stdio',
    defaultWorkspace: options.workspaceId === undefined,
    ...(options.httpUrl ? { httpUrl: options.httpUrl } : {}),
  }
  const tools: ToolDefinition[] = [...CORE_TOOLS]
  tools.push(createUsageGuideTool(() => tools, settings) as unknown as ToolDefinition)

  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: false },
      },
      async (args: unknown) => {
        try {
          const result = await tool.handle(args as never, context)
          if (backgroundDreaming && tool.schedulesDream && !result.isError) memory.queue.schedule(workspaceId)
          return result
        } catch (error) {
          return toolError(describeFailure(tool.name, error))
        }
      },
    )
  }

  for (const file of ['USER.md', 'MEMORY.md'] as const) {
    server.registerResource(
      file,
      `hymem://${workspaceId}/${file}`,
      {
        title: file,
        description:
          file === 'USER.md'
            ? "The user's behavioural profile, maintained by dreaming."
            : 'Project insights maintained by dreaming.',
        mimeType: 'text/markdown',
      },
      async (uri) => {
        const profile = await memory.profile({ workspaceId })
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'text/markdown',
              text: file === 'USER.md' ? profile.userMd : profile.memoryMd,
            },
          ],
        }
      },
    )
  }
  return server
}

/** Tool failures become `isError` results with the cause's message (URL secrets masked), never a stack trace. */
function describeFailure(toolName: string, error: unknown): string {
  if (isClosedMemory(error))
    return `${toolName} failed: the memory behind this MCP server is closed (the server is shutting down); restart the HyMem MCP server, then retry`
  const message = error instanceof Error ? error.message : String(error)
  return `${toolName} failed: ${maskSecrets(message)}`
}

/** The facade's or the store's CLOSED error: a call that raced (or came after) the memory's close. */
function isClosedMemory(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'HyMemError' || error.name === 'StoreError') &&
    (error as { code?: unknown }).code === 'CLOSED'
  )
}
