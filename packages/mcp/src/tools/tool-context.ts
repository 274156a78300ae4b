import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { McpMemory } from '../memory'

/** What every tool handler is given: the memory and the workspace this connection is bound to. */
export interface ToolContext {
  readonly memory: McpMemory
  readonly workspaceId: string
}

/** A tool answer with both a readable text rendering and structured content. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured }
}

/** An `isError` result that tells the agent what was wrong and what to do. */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true }
}
