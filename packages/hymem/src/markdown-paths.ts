import { join } from 'node:path'

/** The folder under the memory's root that holds the other workspaces' Markdown files. */
export const WORKSPACES_FOLDER = 'workspaces'

/**
 * USER.md and MEMORY.md of a workspace: directly under `root` for the default workspace, under
 * `root/workspaces/<id>/` for the others. Characters outside `[A-Za-z0-9_.-]` (and a leading dot) are
 * percent-encoded, so no workspace id can point outside `root`.
 */
export function markdownPathsFor(
  root: string,
  defaultWorkspaceId: string,
  workspaceId: string,
): { userMd: string; memoryMd: string } {
  const folder =
    workspaceId === defaultWorkspaceId ? root : join(root, WORKSPACES_FOLDER, safeFolderName(workspaceId))
  return { userMd: join(folder, 'USER.md'), memoryMd: join(folder, 'MEMORY.md') }
}

function safeFolderName(id: string): string {
  const encoded = id.replace(/[^A-Za-z0-9_.-]/g, (char) =>
    [...Buffer.from(char, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  )
  return encoded.startsWith('.') ? `%2E${encoded.slice(1)}` : encoded
}
