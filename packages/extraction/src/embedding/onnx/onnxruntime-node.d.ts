// onnxruntime-node 1.17.0 ships without its declarations; its API is onnxruntime-common's, which it re-exports.
declare module 'onnxruntime-node' {
  export * from 'onnxruntime-common'
}
