import cliProgress from 'cli-progress'
import type { CliOutput } from '../io'

/** A progress display that is a no-op when the output is not a terminal. */
export interface Progress {
  /** Sets the total and the current value, and the label shown after the bar. */
  update(value: number, total: number, label: string): void
  /** Changes only the label. */
  label(label: string): void
  stop(): void
}

const NOOP: Progress = { update() {}, label() {}, stop() {} }

/**
 * A cli-progress bar on `output` when it is a real TTY stream (so piped output and `--json` consumers never
 * see control codes), otherwise nothing.
 */
export function createProgress(output: CliOutput, title: string): Progress {
  const stream = output as unknown as NodeJS.WriteStream
  if (output.isTTY !== true || typeof stream.cursorTo !== 'function') return NOOP
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${title} {bar} {value}/{total} {label}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      stopOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  )
  let started = false
  let lastLabel = ''
  return {
    update(value, total, label) {
      lastLabel = label
      if (!started) {
        bar.start(Math.max(total, 1), value, { label })
        started = true
        return
      }
      bar.setTotal(Math.max(total, 1))
      bar.update(value, { label })
    },
    label(label) {
      lastLabel = label
      if (!started) {
        bar.start(1, 0, { label })
        started = true
        return
      }
      bar.update({ label: lastLabel })
    },
    stop() {
      if (started) bar.stop()
    },
  }
}
