#!/usr/bin/env node
// geflow side by side with ONNX Runtime (CPU) on the same models, inputs and
// thread counts. See README.md in this folder; `make bench-ort` runs it.
//
//   node compare_ort.js --geflow BIN --work DIR [--threads 1,2] [--runs N]
//                       MODEL.onnx|FOLDER ...
'use strict';
const fs = require('fs');
const path = require('path');
const { readNpy, writeNpy } = require('./npy');
const { describe, timeOrt } = require('./ort');
const gf = require('./geflow');

function parseArgs(argv) {
  const opts = { threads: [1, 2], runs: 20, models: [] };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--geflow') opts.geflow = value();
    else if (a === '--work') opts.work = value();
    else if (a === '--threads') opts.threads = value().split(',').map(Number);
    else if (a === '--runs') opts.runs = Number(value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.models.push(a);
  }
  if (!opts.geflow || !opts.work || !opts.models.length)
    throw new Error('usage: compare_ort.js --geflow BIN --work DIR ' +
                    '[--threads 1,2] [--runs N] MODEL.onnx|FOLDER ...');
  if (opts.threads.some((t) => !(t >= 1)) || !(opts.runs >= 1))
    throw new Error('--threads and --runs take positive integers');
  return opts;
}

/** Every .onnx file named, or inside a folder named, in argument order. */
function listModels(args) {
  const models = [];
  for (const a of args) {
    if (!fs.existsSync(a)) throw new Error(`${a}: no such file or folder`);
    if (fs.statSync(a).isDirectory())
      models.push(...fs.readdirSync(a).filter((f) => f.endsWith('.onnx'))
        .sort().map((f) => path.join(a, f)));
    else models.push(a);
  }
  return models;
}

/** Deterministic values in [-1, 1) (or zeros for integers) for a new input. */
function randomTensor(meta, seed) {
  const shape = meta.shape;
  if (shape.some((d) => typeof d !== 'number' || d < 0))
    throw new Error(`input '${meta.name}' has a dynamic shape [${shape}]`);
  const count = shape.reduce((a, b) => a * b, 1);
  let data;
  if (meta.type === 'float32' || meta.type === 'float64') {
    data = meta.type === 'float32' ? new Float32Array(count)
                                   : new Float64Array(count);
    let s = seed >>> 0 || 1;
    for (let i = 0; i < count; ++i) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0; // Numerical Recipes LCG
      data[i] = s / 2 ** 31 - 1;
    }
  } else if (meta.type === 'int64') {
    data = new BigInt64Array(count);
  } else if (meta.type === 'int32') {
    data = new Int32Array(count);
  } else if (meta.type === 'bool' || meta.type === 'uint8') {
    data = new Uint8Array(count);
  } else {
    throw new Error(`input '${meta.name}' has unsupported type ${meta.type}`);
  }
  return { type: meta.type, shape, data };
}

/**
 * The input files of `model`: <stem>.<input>.npy beside it (or <stem>.input.npy
 * for a single input, as tests/models/export_models.py writes), else random
 * ones written into `work`.
 */
async function prepareInputs(model, work) {
  const stem = model.slice(0, -'.onnx'.length);
  const { inputs } = await describe(model);
  const files = {}, tensors = {};
  inputs.forEach((meta, k) => {
    const candidates = [`${stem}.${meta.name}.npy`];
    if (inputs.length === 1) candidates.push(`${stem}.input.npy`);
    let file = candidates.find((f) => fs.existsSync(f));
    if (!file) {
      file = path.join(work, `${path.basename(stem)}.${meta.name}.npy`);
      writeNpy(file, randomTensor(meta, 1234 + k));
    }
    files[meta.name] = file;
    tensors[meta.name] = readNpy(file);
  });
  return { files, tensors };
}

/** '' when geflow's outputs in `dir` match ORT's, else what differs. */
function compareOutputs(ortOutputs, dir) {
  for (const [name, want] of Object.entries(ortOutputs)) {
    const file = path.join(dir, `${name.replace(/[/\\:]/g, '_')}.npy`);
    if (!fs.existsSync(file)) return `no output ${name}`;
    const got = readNpy(file);
    if (got.data.length !== want.data.length) return `${name}: size differs`;
    let maxRef = 0, maxDiff = 0;
    for (let i = 0; i < want.data.length; ++i) {
      const w = Number(want.data[i]), g = Number(got.data[i]);
      maxRef = Math.max(maxRef, Math.abs(w));
      maxDiff = Math.max(maxDiff, Number.isNaN(g - w) ? Infinity
                                                      : Math.abs(g - w));
    }
    // The tolerance of the models-run tests: 1e-3 of the largest magnitude.
    if (maxDiff > 1e-3 * maxRef + 1e-6)
      return `${name}: max |diff| ${maxDiff.toPrecision(3)} ` +
             `(largest |value| ${maxRef.toPrecision(3)})`;
  }
  return '';
}

async function benchModel(model, opts) {
  const name = path.basename(model, '.onnx');
  const work = path.join(opts.work, name);
  fs.mkdirSync(work, { recursive: true });
  const { files, tensors } = await prepareInputs(model, work);
  const fusedOm = path.join(work, `${name}.om`);
  const plainOm = path.join(work, `${name}.nofuse.om`);
  const fusions = gf.fusionNames(opts.geflow, model, plainOm);
  const plainArgs = fusions.length ? [`--no-fuse=${fusions.join(',')}`] : [];
  const plain = gf.compile(opts.geflow, model, plainOm, plainArgs);
  const fused = gf.compile(opts.geflow, model, fusedOm);
  const plainRun = gf.run(opts.geflow, plainOm, files,
                          { threads: opts.threads[0], repeat: 1 });
  const rows = [];
  for (const threads of opts.threads) {
    const ort = await timeOrt(model, tensors, { threads, runs: opts.runs });
    const outDir = path.join(work, `out-t${threads}`);
    const run = gf.run(opts.geflow, fusedOm, files,
                       { threads, repeat: opts.runs, outputDir: outDir });
    rows.push({
      model: name, threads, ortMs: ort.medianMs, geflowMs: run.medianMs,
      ratio: run.medianMs / ort.medianMs, compileMs: fused.compileMs,
      compileWallMs: fused.wallMs, ortCreateMs: ort.createMs,
      kernels: [plain.kernels, fused.kernels],
      deviceUs: [plainRun.deviceUs, run.deviceUs],
      check: compareOutputs(ort.outputs, outDir) || 'ok',
    });
  }
  return rows;
}

const COLUMNS = [
  ['model', (r) => r.model],
  ['threads', (r) => String(r.threads)],
  ['ORT ms', (r) => r.ortMs.toFixed(3)],
  ['geflow ms', (r) => r.geflowMs.toFixed(3)],
  ['ratio', (r) => r.ratio.toFixed(2)],
  ['compile ms', (r) => r.compileMs.toFixed(1)],
  ['ORT create ms', (r) => r.ortCreateMs.toFixed(1)],
  ['kernels unfused/fused', (r) => r.kernels.join(' / ')],
  ['device us unfused/fused', (r) => r.deviceUs.map((v) => v.toFixed(1))
    .join(' / ')],
  ['outputs', (r) => r.check],
];

function printTable(rows) {
  const cells = [COLUMNS.map(([h]) => h),
                 ...rows.map((r) => COLUMNS.map(([, f]) => f(r)))];
  const width = COLUMNS.map((_, c) => Math.max(...cells.map((l) => l[c].length)));
  const line = (l) => `| ${l.map((s, c) => s.padEnd(width[c])).join(' | ')} |`;
  console.log(line(cells[0]));
  console.log(`|${width.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of cells.slice(1)) console.log(line(l));
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  fs.mkdirSync(opts.work, { recursive: true });
  const rows = [];
  let failed = false;
  for (const model of listModels(opts.models)) {
    process.stderr.write(`compare_ort: ${model}\n`);
    try {
      rows.push(...await benchModel(model, opts));
    } catch (e) {
      process.stderr.write(`compare_ort: ${model}: skipped: ${e.message}\n`);
    }
  }
  printTable(rows);
  failed = rows.some((r) => r.check !== 'ok');
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(`compare_ort: error: ${e.message}\n`);
  process.exitCode = 1;
});
