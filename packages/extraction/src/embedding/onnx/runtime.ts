/// <reference path="./onnxruntime-node.d.ts" />

/** ONNX Runtime's API (`onnxruntime-common`, which `onnxruntime-node` re-exports with its native backend). */
export type OnnxRuntime = typeof import('onnxruntime-common')

/**
 * Loads ONNX Runtime's native CPU backend. Pinned to 1.17.0, the newest release without an install script:
 * later ones fetch a CUDA provider from NuGet while installing, which fails offline and behind registry
 * mirrors. Its CPU binaries for Linux, macOS and Windows ship inside the npm package.
 */
export async function loadOnnxRuntime(): Promise<OnnxRuntime> {
  return await import('onnxruntime-node')
}
