import { StoreError } from '../kernel/errors'

export function _requireWorkspace(workspaceId: unknown): asserts workspaceId is string {
  if (typeof workspaceId !== 'string' || workspaceId === '') {
    throw new StoreError('INVALID_INPUT', 'workspaceId must be a non-empty string')
  }
}
