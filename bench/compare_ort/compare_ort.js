#!/usr/bin/env node
// geflow side by side with ONNX Runtime (CPU) on the same models, inputs and
// thread counts, their runs interleaved so that the shared machine's load
// changes hit both. See README.md in this folder; `make bench-ort` runs it.
//
//   node compare_ort.js --geflow BIN --work DIR [--threads 1,2] [--runs N]
//                       [--rounds K] [--zoo DIR] [--markdown FILE] [--fusion]
//                       [--note TEXT] MODEL.onnx|FOLDER ...
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { readNpy, writeNpy } = require('./npy');
const ort = require('./ort');
const gf = require('./geflow');
const report = require('./report');
const ortIsa = require('./ort_isa');

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
  return [...new Set(models)];
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
 * The model's tensors beside it: <stem>.<name>.npy, or <stem>.input.npy /
 * <stem>.output.npy when there is a single one (as the exporters write).
 */
function besideModel(stem, names, single) {
  const files = {};
  for (const name of names) {
    const candidates = [`${stem}.${name}.npy`];
    if (names.length === 1) candidates.push(`${stem}.${single}.npy`);
    const file = candidates.find((f) => fs.existsSync(f));
    if (file) files[name] = file;
  }
  return files;
}

/** The input files of `model`: beside it, else random ones in `work`. */
async function prepareInputs(model, work) {
  const stem = model.slice(0, -'.onnx'.length);
  const { inputs, outputs } = await ort.describe(model);
  const files = besideModel(stem, inputs.map((m) => m.name), 'input');
  const tensors = {};
  inputs.forEach((meta, k) => {
    if (!files[meta.name]) {
      files[meta.name] = path.join(work,
                                   `${path.basename(stem)}.${meta.name}.npy`);
      writeNpy(files[meta.name], randomTensor(meta, 1234 + k));
    }
    tensors[meta.name] = readNpy(files[meta.name]);
  });
  return { files, tensors, references: besideModel(stem, outputs, 'output') };
}

/**
 * 'ok' when geflow's output `name` in `dir` is within 1e-3 of the largest
 * reference magnitude (the benchmark's tolerance), else what differs.
 */
function compareTensor(name, want, dir) {
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
  // No absolute slack: some random-weight models end in values of 1e-10,
  // where any slack would pass anything.
  if (!(maxDiff <= 1e-3 * maxRef))
    return `${name}: max diff ${maxDiff.toPrecision(3)} ` +
           `(max ${maxRef.toPrecision(3)})`;
  // An all-zero reference (ViT's zero-initialized head) checks nothing.
  return maxRef === 0 ? 'ok (all 0)' : 'ok';
}

/** compareTensor over every output of `wanted` ({name: tensor}). */
function compareOutputs(wanted, dir) {
  const verdicts = Object.entries(wanted)
    .map(([name, want]) => compareTensor(name, want, dir));
  return verdicts.find((v) => !v.startsWith('ok')) || verdicts[0] || '';
}

/** The fusion columns: kernel counts and device time without any fusion. */
function fusionFigures(opts, model, work, files, fusedKernels) {
  const name = path.basename(model, '.onnx');
  const plainOm = path.join(work, `${name}.nofuse.om`);
  const fusions = gf.fusionNames(opts.geflow, model, plainOm);
  const plainArgs = fusions.length ? [`--no-fuse=${fusions.join(',')}`] : [];
  const plain = gf.compile(opts.geflow, model, plainOm, plainArgs);
  const plainRun = gf.run(opts.geflow, plainOm, files,
                          { threads: opts.threads[0], repeat: 1 });
  return { kernels: [plain.kernels, fusedKernels], plainUs: plainRun.deviceUs };
}

/**
 * Untimed runs each side makes before timing: the same count for both (ORT
 * warms once per session, geflow once per process, so each geflow round
 * pays them again).
 */
const kWarmup = 2;

/**
 * One thread count of one model: ORT's session stays open while geflow and
 * ORT take turns, a block of runs each, `rounds` times (who goes first
 * alternates too). Each side's figure is the median of its block medians.
 */
async function measure(opts, model, om, inputs, threads, outDir) {
  const session = await ort.openSession(model, inputs.tensors,
                                        { threads, warmup: kWarmup });
  const { rounds, perRound } = report.roundPlan(opts.runs, opts.rounds);
  const geflowMedians = [], ortMedians = [];
  let isa = null, deviceUs = null;
  try {
    for (let r = 0; r < rounds; ++r) {
      const sides = [
        async () => {
          const run = gf.run(opts.geflow, om, inputs.files, {
            threads, repeat: perRound, warmup: kWarmup,
            outputDir: r === 0 ? outDir : undefined,
          });
          geflowMedians.push(run.medianMs);
          ({ isa, deviceUs } = run);
        },
        async () => ortMedians.push(report.median(await session.time(perRound))),
      ];
      if (r % 2) sides.reverse();
      for (const side of sides) await side();
    }
  } finally {
    await session.release();
  }
  return {
    geflowMs: report.median(geflowMedians), ortMs: report.median(ortMedians),
    spread: [report.spread(geflowMedians), report.spread(ortMedians)],
    ortCreateMs: session.createMs, ortOutputs: session.outputs, isa, deviceUs,
  };
}

/** Whether `model` is in --zoo's folder; undefined without --zoo. */
function inZoo(model, opts) {
  if (!opts.zoo) return undefined;
  return path.dirname(path.resolve(model)) === path.resolve(opts.zoo);
}

/** The rows of one model, one per thread count; `state.isa` is filled in. */
async function benchModel(model, opts, state) {
  const name = path.basename(model, '.onnx');
  const zoo = inZoo(model, opts);
  const work = path.join(opts.work, name);
  fs.mkdirSync(work, { recursive: true });
  const inputs = await prepareInputs(model, work);
  const torch = {};
  for (const [out, file] of Object.entries(inputs.references))
    torch[out] = readNpy(file);
  const om = path.join(work, `${name}.om`);
  let compiled = null, error = null;
  try {
    compiled = gf.compile(opts.geflow, model, om);
  } catch (e) {
    error = e.message;
  }
  const extra = compiled && opts.fusion
    ? fusionFigures(opts, model, work, inputs.files, compiled.kernels) : null;
  const rows = [];
  for (const threads of opts.threads) {
    const row = { model: name, threads, zoo, error, geflowMs: null,
                  compileMs: compiled ? compiled.compileMs : null };
    if (!compiled) {
      // ORT alone still gives the row its baseline.
      const session = await ort.openSession(model, inputs.tensors, { threads });
      row.ortCreateMs = session.createMs;
      row.ortMs = report.median(await session.time(opts.runs));
      await session.release();
      rows.push(row);
      continue;
    }
    const outDir = path.join(work, `out-t${threads}`);
    fs.rmSync(outDir, { recursive: true, force: true });
    try {
      const m = await measure(opts, model, om, inputs, threads, outDir);
      state.isa = state.isa || m.isa;
      Object.assign(row, {
        geflowMs: m.geflowMs, ortMs: m.ortMs, ortCreateMs: m.ortCreateMs,
        spread: m.spread,
        vsOrt: compareOutputs(m.ortOutputs, outDir),
        vsTorch: compareOutputs(torch, outDir),
      });
      if (extra) {
        row.kernels = extra.kernels;
        row.deviceUs = [extra.plainUs, m.deviceUs];
      }
    } catch (e) {
      row.error = e.message;
    }
    rows.push(row);
  }
  return rows;
}

function loadText() {
  return os.loadavg().map((v) => v.toFixed(2)).join(' ');
}

/** Which kernels the ORT library this process loaded picks, and why. */
function ortIsaText() {
  const lib = ortIsa.loadedLibrary();
  if (lib && ortIsa.patchedIsa(fs.readFileSync(lib)) === 'avx2')
    return 'ISA: AVX2+FMA, forced (ORT_ISA=avx2: its AVX-512 checks ' +
      `disabled in a copy of its library, ${lib})`;
  return "ISA: MLAS's own pick for this CPU (AVX-512 where the CPU has it)";
}

function header(opts, state, loadStart) {
  const { rounds, perRound } = report.roundPlan(opts.runs, opts.rounds);
  const cpus = os.cpus();
  const forced = process.env.GEFLOW_ISA;
  const isa = state.isa || 'unknown (geflow ran no model)';
  return [
    `CPU: ${cpus.length ? cpus[0].model.trim() : 'unknown'}, ` +
      `${cpus.length} logical CPUs`,
    `geflow ISA: ${isa}` + (forced ? ` (GEFLOW_ISA=${forced})` : ''),
    `ONNX Runtime: onnxruntime-node ${ort.version}, CPU provider, ` +
      `sequential, graph optimizations all; ${ortIsaText()}`,
    `timing: ${rounds} rounds of ${perRound} runs per side and thread ` +
      'count, geflow and ORT alternating; each figure is the median of its ' +
      'round medians (geflow: `geflow run --warmup ' + kWarmup + '` host ' +
      'latency, a new process per round; ORT: `session.run` in one session ' +
      'opened with ' + kWarmup + ' warm-up runs)',
    'outputs: ok when within 1e-3 of the largest reference magnitude ' +
      "(vs torch: the exporter's output.npy)",
    `load average (1, 5, 15 min): ${loadStart} at start, ${loadText()} at end`,
    ...opts.notes,
  ];
}

async function main() {
  const opts = report.parseArgs(process.argv.slice(2));
  fs.mkdirSync(opts.work, { recursive: true });
  const loadStart = loadText();
  const state = { isa: null };
  const rows = [];
  for (const model of listModels(opts.models)) {
    process.stderr.write(`compare_ort: ${model}\n`);
    try {
      const mine = await benchModel(model, opts, state);
      for (const r of mine)
        process.stderr.write(`  ${r.threads} thread(s): geflow ` +
          `${r.geflowMs == null ? '-' : r.geflowMs.toFixed(2)} ms, ORT ` +
          `${r.ortMs == null ? '-' : r.ortMs.toFixed(2)} ms` +
          `${r.error ? `, failed: ${r.error.split('\n')[0]}` : ''}\n`);
      rows.push(...mine);
    } catch (e) {
      process.stderr.write(`compare_ort: ${model}: skipped: ${e.message}\n`);
      const name = path.basename(model, '.onnx');
      for (const threads of opts.threads)
        rows.push({ model: name, threads, error: `skipped: ${e.message}`,
                    zoo: inZoo(model, opts) });
    }
  }
  const text = report.formatReport({
    header: header(opts, state, loadStart), rows, threads: opts.threads,
    fusion: opts.fusion,
  });
  process.stdout.write(text);
  if (opts.markdown) {
    const file = opts.markdown.replace('{isa}', report.isaShortName(state.isa));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    process.stderr.write(`compare_ort: wrote ${file}\n`);
  }
  process.exitCode = report.allGood(rows) ? 0 : 1;
}

main().catch((e) => {
  process.stderr.write(`compare_ort: error: ${e.message}\n`);
  process.exitCode = 1;
});
