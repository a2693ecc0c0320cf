// Reads and writes numpy's .npy format (version 1.0/2.0, little-endian, C
// order) for the dtypes ONNX models take as inputs: enough to hand the same
// tensors to ONNX Runtime and to `geflow run`, and to compare their outputs.
'use strict';
const fs = require('fs');

const MAGIC = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]); // \x93NUMPY

// numpy descr <-> ONNX Runtime tensor type <-> typed array.
const DTYPES = [
  { descr: '<f4', ort: 'float32', array: Float32Array },
  { descr: '<f8', ort: 'float64', array: Float64Array },
  { descr: '<i8', ort: 'int64', array: BigInt64Array },
  { descr: '<i4', ort: 'int32', array: Int32Array },
  { descr: '|u1', ort: 'uint8', array: Uint8Array },
  { descr: '|i1', ort: 'int8', array: Int8Array },
  { descr: '|b1', ort: 'bool', array: Uint8Array },
];

function dtypeBy(key, value) {
  const d = DTYPES.find((t) => t[key] === value);
  if (!d) throw new Error(`unsupported tensor type '${value}'`);
  return d;
}

/** {type (ORT name), shape, data (typed array)} from a .npy file. */
function readNpy(path) {
  const buf = fs.readFileSync(path);
  if (buf.length < 10 || !buf.subarray(0, 6).equals(MAGIC))
    throw new Error(`${path}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLen;
  const header = buf.toString('latin1', major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const order = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !order || !shape)
    throw new Error(`${path}: malformed .npy header`);
  if (order[1] === 'True')
    throw new Error(`${path}: Fortran-order arrays are not supported`);
  const d = dtypeBy('descr', descr[1].replace('=', '<'));
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s)
    .map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const bytes = count * d.array.BYTES_PER_ELEMENT;
  if (buf.length < start + bytes)
    throw new Error(`${path}: ${buf.length - start} data bytes, need ${bytes}`);
  // Copy so the typed array is aligned whatever the header length.
  const data = new d.array(count);
  Buffer.from(data.buffer).set(buf.subarray(start, start + bytes));
  return { type: d.ort, shape: dims, data };
}

/** Writes {type, shape, data} as a version 1.0 .npy file. */
function writeNpy(path, tensor) {
  const d = dtypeBy('ort', tensor.type);
  const shape = tensor.shape.length === 1 ? `${tensor.shape[0]},`
                                          : tensor.shape.join(', ');
  let header = `{'descr': '${d.descr}', 'fortran_order': False, ` +
               `'shape': (${shape}), }`;
  // numpy pads the header with spaces to a multiple of 64 bytes, then '\n'.
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const head = Buffer.alloc(10);
  MAGIC.copy(head);
  head[6] = 1;
  head[7] = 0;
  head.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset,
                           tensor.data.byteLength);
  fs.writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'),
                                        data]));
}

module.exports = { readNpy, writeNpy };
