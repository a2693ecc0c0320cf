// ONNX Runtime's side of the comparison: session creation time and timed
// runs, on the CPU execution provider with a fixed number of intra-op
// threads and sequential execution. A session stays open across the rounds
// so its runs can alternate with geflow's.
'use strict';
const ort = require('onnxruntime-node');
const { median } = require('./report');

/** The onnxruntime-node version the comparison runs. */
const version = ort.env.versions.node || ort.env.versions.common;

/** Input/output names, types and shapes as ORT reads them from `model`. */
async function describe(model) {
  const session = await ort.InferenceSession.create(model);
  const info = { inputs: session.inputMetadata, outputs: session.outputNames };
  await session.release();
  return info;
}

/**
 * Creates a session `creates` times (median ms) and keeps the last one,
 * warmed up with `warmup` untimed runs on `feeds`.
 */
async function openSession(model, feeds, { threads, warmup = 2, creates = 3 }) {
  const options = {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  };
  const createMs = [];
  let session = null;
  for (let i = 0; i < creates; ++i) {
    if (session) await session.release();
    const t0 = performance.now();
    session = await ort.InferenceSession.create(model, options);
    createMs.push(performance.now() - t0);
  }
  const tensors = {};
  for (const [name, t] of Object.entries(feeds))
    tensors[name] = new ort.Tensor(t.type, t.data, t.shape);
  let results = null;
  for (let i = 0; i < warmup; ++i) results = await session.run(tensors);
  const outputs = {};
  for (const [name, t] of Object.entries(results || {}))
    outputs[name] = { type: t.type, shape: Array.from(t.dims), data: t.data };
  return {
    createMs: median(createMs),
    outputs,
    /** The ms of each of `n` timed runs. */
    async time(n) {
      const runMs = [];
      for (let i = 0; i < n; ++i) {
        const t0 = performance.now();
        await session.run(tensors);
        runMs.push(performance.now() - t0);
      }
      return runMs;
    },
    release: () => session.release(),
  };
}

module.exports = { version, describe, openSession };
