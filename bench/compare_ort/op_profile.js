#!/usr/bin/env node
// Where a model's time goes, op by op, in geflow and in ONNX Runtime, each
// measured inside the model (operands as cold as a real run leaves them):
// geflow's `run --profile` host times against ORT's own profiler
// (enableProfiling, per-node kernel times), summed by node-name prefix. The
// two sides name nodes differently (ORT's NCHWc rewrite names a conv by its
// fused output, "/layer1/layer1.0/relu/Relu_output_0_nchwc"), so the prefix
// (the module path torch exports, "/layer1/layer1.0") is what compares.
//
//   node op_profile.js --geflow BIN [--threads N] [--runs R] [--depth D]
//                      MODEL.onnx
//
// The inputs are the model's <stem>.<input>.npy or <stem>.input.npy, as
// compare_ort.js reads them. Prints one row per prefix, largest gap first.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { median, positiveInt, walkArgs } = require('./report');

/** The first `depth` parts of a node name's module path. */
function prefixOf(name, depth) {
  return name.replace(/^\//, '').split('/').slice(0, depth).join('/');
}

/** {opName: hostUs} from geflow's op_summary.csv (events left out). */
function readGeflowProfile(csvText) {
  const lines = csvText.trim().split('\n');
  const header = lines[0].split(',');
  const name = header.indexOf('Op Name'), task = header.indexOf('Task Type');
  // Wall time, as ORT's kernel times are: Host Time sums the threads.
  const host = header.indexOf('Host Wall Time(us)');
  if (name < 0 || task < 0 || host < 0)
    throw new Error(
        'op_summary.csv lacks Op Name, Task Type or Host Wall Time(us)');
  const times = {};
  for (const line of lines.slice(1)) {
    const cells = line.split(',');
    if (cells[task] === 'EVENT') continue;
    times[cells[name]] = (times[cells[name]] || 0) + Number(cells[host]);
  }
  return times;
}

/** {nodeName: median us of its last `runs` kernel times} from ORT's trace. */
function readOrtProfile(events, runs) {
  const durations = {};
  for (const e of events) {
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time')) continue;
    const node = e.name.slice(0, -'_kernel_time'.length);
    (durations[node] = durations[node] || []).push(e.dur);
  }
  const times = {};
  for (const [node, d] of Object.entries(durations))
    times[node] = median(d.slice(-runs));
  return times;
}

/** Rows {prefix, geflowUs, ortUs} summed by prefix, largest gap first. */
function byPrefix(geflowTimes, ortTimes, depth) {
  const rows = new Map();
  const add = (times, key) => {
    for (const [name, us] of Object.entries(times)) {
      const prefix = prefixOf(name, depth);
      const row = rows.get(prefix) || { prefix, geflowUs: 0, ortUs: 0 };
      row[key] += us;
      rows.set(prefix, row);
    }
  };
  add(geflowTimes, 'geflowUs');
  add(ortTimes, 'ortUs');
  return [...rows.values()].sort(
    (a, b) => b.geflowUs - b.ortUs - (a.geflowUs - a.ortUs));
}

function parseArgs(argv) {
  const opts = { threads: 1, runs: 20, depth: 2, model: null, geflow: null };
  walkArgs(argv, (a, value) => {
    if (a === '--geflow') opts.geflow = value();
    else if (a === '--threads') opts.threads = positiveInt(a, value());
    else if (a === '--runs') opts.runs = positiveInt(a, value());
    else if (a === '--depth') opts.depth = positiveInt(a, value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else opts.model = a;
  });
  if (!opts.geflow || !opts.model)
    throw new Error('usage: op_profile.js --geflow BIN [--threads N] ' +
                    '[--runs R] [--depth D] MODEL.onnx');
  return opts;
}

/** {inputName: npy file} beside the model, as compare_ort.js finds them. */
function inputFiles(model, names) {
  const stem = model.replace(/\.onnx$/, '');
  const files = {};
  for (const name of names) {
    const own = `${stem}.${name}.npy`, single = `${stem}.input.npy`;
    if (fs.existsSync(own)) files[name] = own;
    else if (names.length === 1 && fs.existsSync(single)) files[name] = single;
    else throw new Error(`${model}: no ${own} for input '${name}'`);
  }
  return files;
}

function geflowTimes(opts, files, work) {
  const om = path.join(work, 'model.om'), profile = path.join(work, 'geflow');
  const run = (args) => {
    const r = spawnSync(opts.geflow, args, { encoding: 'utf8' });
    if (r.status !== 0)
      throw new Error(`geflow ${args[0]}: ${(r.stderr || r.stdout).trim()}`);
  };
  run(['compile', opts.model, '-o', om]);
  const args = ['run', om, '--repeat', String(opts.runs), '--warmup', '2',
                '--threads', String(opts.threads), '--profile', profile];
  for (const [name, file] of Object.entries(files))
    args.push('--input', `${name}=${file}`);
  run(args);
  return readGeflowProfile(
    fs.readFileSync(path.join(profile, 'op_summary.csv'), 'utf8'));
}

async function ortTimes(opts, files, work) {
  const ort = require('onnxruntime-node');
  const { readNpy } = require('./npy');
  const session = await ort.InferenceSession.create(opts.model, {
    intraOpNumThreads: opts.threads, interOpNumThreads: 1,
    executionMode: 'sequential', graphOptimizationLevel: 'all',
    enableProfiling: true, profileFilePrefix: path.join(work, 'ort'),
  });
  const feeds = {};
  for (const [name, file] of Object.entries(files)) {
    const t = readNpy(file);
    feeds[name] = new ort.Tensor(t.type, t.data, t.shape);
  }
  for (let i = 0; i < opts.runs + 2; ++i) await session.run(feeds);
  await session.release();
  const trace = fs.readdirSync(work).find((f) => /^ort.*\.json$/.test(f));
  if (!trace) throw new Error('ONNX Runtime wrote no profile');
  return readOrtProfile(
    JSON.parse(fs.readFileSync(path.join(work, trace), 'utf8')), opts.runs);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'geflow-op-profile-'));
  try {
    const ort = require('onnxruntime-node');
    const probe = await ort.InferenceSession.create(opts.model);
    const files = inputFiles(opts.model, probe.inputNames);
    await probe.release();
    const rows = byPrefix(geflowTimes(opts, files, work),
                          await ortTimes(opts, files, work), opts.depth);
    const ms = (us) => (us / 1000).toFixed(2).padStart(8);
    console.log(`${path.basename(opts.model)}, ${opts.threads} thread(s), ` +
                `ms per run (geflow: last of ${opts.runs}; ORT: median)`);
    console.log(`${'prefix'.padEnd(48)} ${'geflow'.padStart(8)} ` +
                `${'ORT'.padStart(8)} ${'gap'.padStart(8)}`);
    let g = 0, o = 0;
    for (const r of rows) {
      console.log(`${r.prefix.slice(0, 48).padEnd(48)} ${ms(r.geflowUs)} ` +
                  `${ms(r.ortUs)} ${ms(r.geflowUs - r.ortUs)}`);
      g += r.geflowUs;
      o += r.ortUs;
    }
    console.log(`${'total'.padEnd(48)} ${ms(g)} ${ms(o)} ${ms(g - o)}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module)
  main().catch((e) => {
    console.error(`op_profile: error: ${e.message}`);
    process.exit(1);
  });

module.exports = { prefixOf, readGeflowProfile, readOrtProfile, byPrefix,
                   parseArgs };
