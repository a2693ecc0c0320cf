// ONNX Runtime's side of the comparison: session creation time and the median
// latency of one run, on the CPU execution provider with a fixed number of
// intra-op threads and sequential execution.
'use strict';
const ort = require('onnxruntime-node');
const { median } = require('./stats');

/** Input/output names, types and shapes as ORT reads them from `model`. */
async function describe(model) {
  const session = await ort.InferenceSession.create(model);
  const info = { inputs: session.inputMetadata, outputs: session.outputNames };
  await session.release();
  return info;
}

/**
 * Creates a session `creates` times (median ms), then runs `feeds` `runs`
 * times after `warmup` untimed runs. Returns {createMs, medianMs, outputs}.
 */
async function timeOrt(model, feeds, { threads, runs, warmup = 2, creates = 3 }) {
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
  const runMs = [];
  for (let i = 0; i < runs; ++i) {
    const t0 = performance.now();
    results = await session.run(tensors);
    runMs.push(performance.now() - t0);
  }
  const outputs = {};
  for (const [name, t] of Object.entries(results))
    outputs[name] = { type: t.type, shape: Array.from(t.dims), data: t.data };
  await session.release();
  return { createMs: median(createMs), medianMs: median(runMs), outputs };
}

module.exports = { describe, timeOrt };
