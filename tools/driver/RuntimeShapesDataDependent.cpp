//===- RuntimeShapesDataDependent.cpp - third-class ops between stages ----===//
//
// A data-dependent op (NonZero, NonMaxSuppression, Unique, Compress) runs as
// GE runs its third-class operators: one AICPU task on a stream of its own,
// into buffers from the stream-ordered pool sized for the kernel's upper
// bound, after which its real output shapes are read and its outputs enter
// the next stage as inputs of those shapes.
//
//===----------------------------------------------------------------------===//

#include "tools/driver/RuntimeShapesModel.h"
#include "tools/driver/ShapeOperands.h"

#include "executor/kernels/data_dependent/DataDependent.h"
#include "frontends/onnx/ModelLoader.h"
#include "runtime/Device.h"

#include <cstring>

using namespace geflow;
using namespace geflow::driver;

namespace {

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

om::TensorDescriptor descriptorOf(const cli::HostTensor &tensor) {
  om::TensorDescriptor desc;
  desc.set_dtype(tensor.dtype);
  for (int64_t d : tensor.shape)
    desc.add_shape(d);
  desc.set_layout("ND");
  desc.set_size(static_cast<int64_t>(tensor.bytes.size()));
  return desc;
}

/// ONNX's attributes by name, as the kernels' contract takes them.
void copyAttributes(const onnx::NodeProto &node, om::OpDef &op) {
  for (const onnx::AttributeProto &attr : node.attribute()) {
    om::AttrDef &value = (*op.mutable_attr())[attr.name()];
    switch (attr.type()) {
    case onnx::AttributeProto::INT:
      value.set_i(attr.i());
      break;
    case onnx::AttributeProto::FLOAT:
      value.set_f(attr.f());
      break;
    case onnx::AttributeProto::STRING:
      value.set_s(attr.s());
      break;
    case onnx::AttributeProto::INTS:
      value.mutable_list()->mutable_i()->CopyFrom(attr.ints());
      break;
    case onnx::AttributeProto::FLOATS:
      value.mutable_list()->mutable_f()->CopyFrom(attr.floats());
      break;
    default:
      op.mutable_attr()->erase(attr.name());
      break;
    }
  }
}

uint64_t bytesOf(om::DataType dtype, const std::vector<int64_t> &shape) {
  cli::HostTensor t;
  t.dtype = dtype;
  t.shape = shape;
  return t.byteSize().value_or(UINT64_MAX);
}

} // namespace

llvm::Error RuntimeShapesModel::runDataDependent(int index, KnownTensors &known,
                                                 RuntimeShapesStats &stats) {
  const onnx::NodeProto &node = source_.graph().node(index);
  std::string where =
      onnxfe::describeNode(node, onnxfe::getDefaultOpset(source_), index);
  std::vector<cli::HostTensor> inputs;
  om::OpDef op;
  op.set_name(node.name().empty() ? node.output(0) : node.name());
  op.set_type(dataDependentKernelType(node.op_type()));
  for (const std::string &in : node.input()) {
    op.add_input(in);
    if (in.empty()) {
      inputs.emplace_back();
      op.add_input_desc();
      continue;
    }
    if (auto it = known.find(in); it != known.end()) {
      inputs.push_back(it->second);
    } else {
      auto value = cli::fromTensorProto(planner_->initializer(in), where);
      if (!value)
        return value.takeError();
      inputs.push_back(std::move(*value));
    }
    *op.add_input_desc() = descriptorOf(inputs.back());
  }
  copyAttributes(node, op);
  if (rt::Status s = kernels::upperBoundShapes(&op); !s.isOk())
    return makeError(where + ": " + s.message());
  if (op.output_desc_size() < node.output_size())
    return makeError(where + ": the kernel bounds " +
                     std::to_string(op.output_desc_size()) + " of " +
                     std::to_string(node.output_size()) + " outputs");

  // Upper-bound buffers from the stream-ordered pool, on the op's stream.
  if (!stream_)
    if (rt::Status s = device_.createStream(0, &stream_); !s.isOk())
      return makeError(where + ": " + s.message());
  // A declared cap shrinks the buffers; an output over it fails the op.
  std::vector<om::TensorDescriptor> described(op.output_desc().begin(),
                                              op.output_desc().end());
  // The kernels size a buffer by its descriptor's element count.
  bool capped = false;
  for (om::TensorDescriptor &desc : described) {
    uint64_t width = bytesOf(desc.dtype(), {});
    if (!maxDataDependentBytes_ ||
        static_cast<uint64_t>(desc.size()) <= maxDataDependentBytes_)
      continue;
    int64_t elements = static_cast<int64_t>(maxDataDependentBytes_ / width);
    desc.clear_shape();
    desc.add_shape(elements);
    desc.set_size(elements * static_cast<int64_t>(width));
    capped = true;
  }
  std::vector<void *> buffers(op.output_desc_size(), nullptr);
  auto release = [&] {
    for (void *buffer : buffers)
      if (buffer)
        (void)device_.freeAsync(buffer, stream_);
  };
  for (int k = 0; k < op.output_desc_size(); ++k)
    if (rt::Status s = device_.mallocAsync(
            std::max<int64_t>(1, described[k].size()), stream_, &buffers[k]);
        !s.isOk()) {
      release();
      return makeError(where + ": upper-bound buffer of output " +
                       std::to_string(k) + ": " + s.message());
    }
  std::vector<kernels::TensorView> in(inputs.size()), out(buffers.size());
  for (size_t k = 0; k < inputs.size(); ++k)
    in[k] = {inputs[k].bytes.data(), &op.input_desc(k)};
  for (size_t k = 0; k < buffers.size(); ++k)
    out[k] = {buffers[k], &described[k]};
  std::vector<std::vector<int64_t>> realShapes;
  rt::KernelLaunch launch;
  launch.name = op.name();
  launch.opType = node.op_type();
  launch.engine = rt::Engine::kAiCpu;
  for (const cli::HostTensor &t : inputs)
    launch.cost.bytes += t.bytes.size();
  launch.fn = [&](uint32_t, uint32_t) {
    return kernels::runDataDependent(op, in.data(), out.data(), &realShapes);
  };
  // The stream is idle here (the stages before synchronized), so the
  // virtual time the synchronize advances is this task's.
  rt::VirtualNs start = device_.now();
  rt::Status s = device_.launchKernel(stream_, std::move(launch));
  if (s.isOk())
    s = device_.synchronizeStream(stream_);
  stats.deviceTimeNs += device_.now() - start;
  if (!s.isOk()) {
    release();
    return makeError(where + ": " + s.message() +
                     (capped ? " (outputs capped at " +
                                   std::to_string(maxDataDependentBytes_) +
                                   " bytes by --max-data-dependent-bytes)"
                             : ""));
  }

  for (int k = 0; k < node.output_size(); ++k) {
    const om::TensorDescriptor &bound = described[k];
    cli::HostTensor result;
    result.name = node.output(k);
    result.dtype = bound.dtype();
    result.shape =
        k < static_cast<int>(realShapes.size())
            ? realShapes[k]
            : std::vector<int64_t>(bound.shape().begin(), bound.shape().end());
    uint64_t bytes = bytesOf(result.dtype, result.shape);
    if (bytes > static_cast<uint64_t>(bound.size())) {
      release();
      return makeError(where + ": output " + std::to_string(k) + " is " +
                       cli::describe(result.dtype, result.shape) +
                       ", over its upper bound " +
                       cli::describe(bound.dtype(), {bound.shape().begin(),
                                                     bound.shape().end()}));
    }
    result.bytes.resize(bytes);
    std::memcpy(result.bytes.data(), buffers[k], bytes);
    if (!node.output(k).empty())
      known[node.output(k)] = std::move(result);
  }
  release();
  ++stats.dataDependentOps;
  return llvm::Error::success();
}
