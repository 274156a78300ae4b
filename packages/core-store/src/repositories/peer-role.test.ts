import { describe, expect, it } from 'vitest'
import { inferPeerRole, messageRoleOf } from './peer-role'

describe('inferPeerRole', () => {
  it.each([
    ['user-42', 'user'],
    ['user_alice', 'user'],
    ['human', 'user'],
    ['Telegram-12345', 'user'],
    ['discord:9', 'user'],
    ['slack-bot', 'user'],
    ['client-app', 'user'],
    ['hermes', 'assistant'],
    ['my-agent', 'assistant'],
    ['Assistant', 'assistant'],
    ['ai-helper', 'assistant'],
    ['support_bot', 'assistant'],
    ['llm', 'assistant'],
    ['alice', 'user'],
    ['maintenance', 'user'],
  ])('%s → %s', (id, role) => {
    expect(inferPeerRole(id)).toBe(role)
  })

  it('maps the peer-only role "other" to a user message', () => {
    expect(messageRoleOf('other')).toBe('user')
    expect(messageRoleOf('tool')).toBe('tool')
  })
})
