import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { McpMemory } from './memory'
import { createMcpServer } from './server'

/**
 * Serves the MCP server over stdin/stdout until the client disconnects. Resolves when the connection
 * closes. Nothing else may write to stdout meanwhile.
 */
export async function serveMcpStdio(options: {
  memory: McpMemory
  workspaceId?: string
  /** Ask for a background dream after each successful write tool call. @default true */
  backgroundDreaming?: boolean
  stdin?: NodeJS.ReadableStream
  stdout?: NodeJS.WritableStream
}): Promise<void> {
  const server = createMcpServer({
    memory: options.memory,
    transport: 'stdio',
    ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    ...(options.backgroundDreaming === false ? { backgroundDreaming: false } : {}),
  })
  const transport = new StdioServerTransport(
    options.stdin as NodeJS.ReadStream | undefined,
    options.stdout as NodeJS.WriteStream | undefined,
  )
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve()
  })
  await server.connect(transport)
  const input = options.stdin ?? process.stdin
  input.once('end', () => void server.close())
  await closed
}
