import { ENV_VARIABLES } from 'hymem'
import { describe, expect, it } from 'vitest'
import { helpText, parseCommandLine } from './command-line'

describe('parseCommandLine', () => {
  it('applies flags over the environment, resolving --root against the working directory', () => {
    const command = parseCommandLine(
      ['--root', 'memory', '--port', '9000', '--host', '::1', '--workspace', 'team', '--log-level', 'debug'],
      { HYMEM_HONCHO_PORT: '8765', HOME: '/home/me' },
      '/srv/hymem',
    )
    expect(command).toMatchObject({
      kind: 'serve',
      env: {
        HOME: '/home/me',
        HYMEM_ROOT: '/srv/hymem/memory',
        HYMEM_HONCHO_PORT: '9000',
        HYMEM_HONCHO_HOST: '::1',
        HYMEM_WORKSPACE: 'team',
        HYMEM_LOG_LEVEL: 'debug',
      },
    })
  })

  it('turns --no-dream into HYMEM_DREAM=off', () => {
    const command = parseCommandLine(['--no-dream'], { HYMEM_DREAM: 'on' }, '/')
    expect(command).toMatchObject({ kind: 'serve', env: { HYMEM_DREAM: 'off' } })
    if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`)
    expect(command.nameFlags('HYMEM_DREAM must be on or off')).toBe('--no-dream must be on or off')
  })

  it('names the flags the user typed in configuration messages, and only those', () => {
    const command = parseCommandLine(['--port=x'], {}, '/')
    if (command.kind !== 'serve') throw new Error(`expected serve, got ${command.kind}`)
    expect(command.nameFlags('HYMEM_HONCHO_PORT must be a whole number')).toBe(
      '--port must be a whole number',
    )
    expect(command.nameFlags('HYMEM_ROOT must be absolute')).toBe('HYMEM_ROOT must be absolute')
  })

  it('answers --help and --version, and reports unknown flags and stray arguments', () => {
    expect(parseCommandLine(['--help'], {}, '/')).toEqual({ kind: 'help' })
    expect(parseCommandLine(['-h', '--port', '1'], {}, '/')).toEqual({ kind: 'help' })
    expect(parseCommandLine(['-v'], {}, '/')).toEqual({ kind: 'version' })
    expect(parseCommandLine(['--prot', '1'], {}, '/')).toMatchObject({
      kind: 'usage-error',
      message: expect.stringContaining("'--prot'"),
    })
    expect(parseCommandLine(['serve'], {}, '/')).toEqual({
      kind: 'usage-error',
      message: 'unexpected argument "serve"',
    })
    expect(parseCommandLine(['--port'], {}, '/')).toMatchObject({ kind: 'usage-error' })
  })
})

describe('helpText', () => {
  it('lists every flag and every environment variable with its default, within the width', () => {
    const help = helpText(80)
    for (const flag of ['--root <dir>', '--workspace <id>', '--host <address>', '--port <number>']) {
      expect(help).toContain(flag)
    }
    for (const variable of ENV_VARIABLES) expect(help).toContain(variable.name)
    expect(help.replace(/\s+/g, ' ')).toContain(
      'HYMEM_HONCHO_PORT Port of the Honcho-compatible server. (default: 8765)',
    )
    expect(help).toContain('SIGTERM')
    for (const path of ['/v3', '/mcp', '/inspect', '/health']) expect(help).toContain(path)
    expect(help.split('\n').filter((line) => line.length > 80)).toEqual([])
  })
})
