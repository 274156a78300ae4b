export { requestBodyLimit } from './body-limit'
export { type BodyKind, bodyKindOf } from './body-type'
export { isClientAbort } from './client-abort'
export {
  type BodyRules,
  GuardConfigError,
  type Refusal,
  RequestGuard,
  type RequestGuardOptions,
} from './guard'
export { hostName, LOOPBACK_NAMES } from './host'
export { guardRequests, plainRefusal, type RefusalAnswer } from './middleware'
export { fromAnotherOrigin } from './origin'
export { bearerToken, type TokenGrants, TokenTable, type WorkspaceGrant } from './tokens'
