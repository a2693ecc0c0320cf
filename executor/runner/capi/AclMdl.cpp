//===- AclMdl.cpp - aclmdl* over LoadedModel ------------------------------===//
//
// A thin layer: check handles, call LoadedModel, turn its Status into an
// aclError (the runtime's toAclError, so aclGetRecentErrMsg works the same).
// Models run on the device current at load, reached through aclrt* only
// (AclDeviceTarget), so they share streams and memory with the caller's
// aclrt* work.
//
//===----------------------------------------------------------------------===//

#include "acl/acl_mdl.h"
#include "acl/acl_rt.h"
#include "executor/runner/ModelExecutor.h"
#include "executor/runner/capi/AclMdlModels.h"
#include "runtime/AclError.h"
#include "runtime/capi/AclHandles.h"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using geflow::rt::capi::failWith;
using geflow::rt::capi::toAclError;
namespace rt = geflow::rt;
namespace om = geflow::om;
namespace exec = geflow::exec;
using geflow::exec::capi::findModel;
using geflow::exec::capi::gearOfExecution;
using geflow::exec::capi::modelTable;
using geflow::exec::capi::noModel;

namespace {

rt::Status fromAcl(aclError err, const char *what) {
  if (err == ACL_SUCCESS)
    return rt::Status::ok();
  rt::StatusCode code = rt::StatusCode::kInternal;
  switch (err) {
  case ACL_ERROR_INVALID_PARAM:
  case ACL_ERROR_RT_PARAM_INVALID:
    code = rt::StatusCode::kInvalidArgument;
    break;
  case ACL_ERROR_RT_MEMORY_ALLOCATION:
  case ACL_ERROR_BAD_ALLOC:
    code = rt::StatusCode::kOutOfMemory;
    break;
  case ACL_ERROR_RT_AICORE_EXCEPTION:
    code = rt::StatusCode::kKernelFailed;
    break;
  case GEFLOW_ERROR_RT_DEADLOCK:
    code = rt::StatusCode::kDeadlock;
    break;
  case ACL_ERROR_RT_CONTEXT_NULL:
  case ACL_ERROR_UNINITIALIZE:
    code = rt::StatusCode::kFailedPrecondition;
    break;
  default:
    break;
  }
  std::string msg = aclGetRecentErrMsg();
  return rt::makeStatus(code,
                        msg.empty() ? std::string(what) + " failed" : msg);
}

int32_t runKernelFn(uint32_t blockIdx, uint32_t blockDim, void *user) {
  const auto *fn = static_cast<const rt::KernelFn *>(user);
  return (*fn)(blockIdx, blockDim).isOk() ? 0 : 1;
}

void runHostFn(void *user) {
  std::unique_ptr<rt::HostFn> fn(static_cast<rt::HostFn *>(user));
  (*fn)();
}

/// The device the aclrt* C API has made current, driven through aclrt*.
class AclDeviceTarget final : public exec::DeviceTarget {
public:
  rt::Status createStream(int32_t priority, rt::Stream **out) override {
    aclrtStream s = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(
        fromAcl(aclrtCreateStreamWithConfig(
                    &s, uint32_t(priority < 0 ? 0 : priority), 0),
                "aclrtCreateStreamWithConfig"));
    *out = static_cast<rt::Stream *>(s);
    return rt::Status::ok();
  }
  rt::Status destroyStream(rt::Stream *s) override {
    return fromAcl(aclrtDestroyStream(s), "aclrtDestroyStream");
  }
  rt::Status createEvent(rt::Event **out) override {
    aclrtEvent e = nullptr;
    GEFLOW_RT_RETURN_IF_ERROR(
        fromAcl(aclrtCreateEvent(&e), "aclrtCreateEvent"));
    *out = static_cast<rt::Event *>(e);
    return rt::Status::ok();
  }
  rt::Status destroyEvent(rt::Event *e) override {
    return fromAcl(aclrtDestroyEvent(e), "aclrtDestroyEvent");
  }
  rt::Status
  launchKernel(rt::Stream *s, const rt::KernelLaunch &l, const rt::KernelFn *fn,
               const std::vector<rt::MemoryAccess> *accesses) override {
    geflowrtKernelDesc d;
    std::memset(&d, 0, sizeof(d));
    d.name = l.name.c_str();
    d.opType = l.opType.c_str();
    d.engine = static_cast<geflowrtEngine>(l.engine);
    d.blockDim = l.blockDim;
    d.aicoreNum = l.aicoreNum;
    d.vectorcoreNum = l.vectorcoreNum;
    d.flops = l.cost.flops;
    d.bytes = l.cost.bytes;
    d.func = runKernelFn;
    d.userData = const_cast<rt::KernelFn *>(fn);
    std::vector<geflowrtMemoryAccess> declared;
    if (accesses) {
      for (const rt::MemoryAccess &a : *accesses)
        declared.push_back(
            {a.ptr, a.bytes, static_cast<geflowrtAccessMode>(a.mode)});
      d.accesses = declared.data();
      d.numAccesses = static_cast<uint32_t>(declared.size());
    }
    return fromAcl(geflowrtLaunchKernel(&d, s), "geflowrtLaunchKernel");
  }
  rt::Status memcpyAsync(rt::Stream *s, void *dst, size_t dstMax,
                         const void *src, size_t count) override {
    return fromAcl(aclrtMemcpyAsync(dst, dstMax, src, count,
                                    ACL_MEMCPY_DEVICE_TO_DEVICE, s),
                   "aclrtMemcpyAsync");
  }
  rt::Status launchHostFunc(rt::Stream *s, rt::HostFn fn) override {
    auto *heap = new rt::HostFn(std::move(fn));
    // A host function, not a callback: the model's own work never waits for
    // a report thread the program may have subscribed to its stream.
    aclError err = aclrtLaunchHostFunc(s, runHostFn, heap);
    if (err != ACL_SUCCESS)
      delete heap;
    return fromAcl(err, "aclrtLaunchHostFunc");
  }
  rt::Status recordEvent(rt::Event *e, rt::Stream *s) override {
    return fromAcl(aclrtRecordEvent(e, s), "aclrtRecordEvent");
  }
  rt::Status streamWaitEvent(rt::Stream *s, rt::Event *e) override {
    return fromAcl(aclrtStreamWaitEvent(s, e), "aclrtStreamWaitEvent");
  }
  rt::Status synchronizeStream(rt::Stream *s) override {
    return fromAcl(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
  }
  rt::Status mallocAsync(size_t size, rt::Stream *s, void **out) override {
    return fromAcl(aclrtMallocFromStream(out, size, s),
                   "aclrtMallocFromStream");
  }
  rt::Status freeAsync(void *p, rt::Stream *s) override {
    return fromAcl(aclrtFreeToStream(p, s), "aclrtFreeToStream");
  }
  rt::Status eventElapsedMs(rt::Event *a, rt::Event *b, float *ms) override {
    return fromAcl(aclrtEventElapsedTime(ms, a, b), "aclrtEventElapsedTime");
  }
  // Without these, a model run through aclmdl* under GEFLOW_SANITIZE=1
  // declared no kernel accesses, so its output copies read workspace bytes
  // the sanitizer believed nothing had written.
  bool sanitizing() const override {
    rt::Device *d = rt::capi::currentDevice();
    return d && d->sanitizer();
  }
  void nameStream(rt::Stream *s, const std::string &name) override {
    if (rt::Device *d = rt::capi::currentDevice())
      d->nameStream(s, name);
  }
};

} // namespace

namespace geflow::exec::capi {

std::shared_ptr<DeviceTarget> makeAclDeviceTarget() {
  return std::make_shared<AclDeviceTarget>();
}

uint32_t addModel(std::unique_ptr<LoadedModel> model) {
  auto entry = std::make_shared<AclModel>();
  entry->model = std::move(model);
  ModelTable &t = modelTable();
  std::lock_guard<std::mutex> lock(t.mu);
  uint32_t id = t.nextId++;
  t.models[id] = std::move(entry);
  return id;
}

ModelTable &modelTable() {
  static ModelTable *t = new ModelTable;
  return *t;
}

std::shared_ptr<AclModel> findModel(uint32_t id) {
  ModelTable &t = modelTable();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.models.find(id);
  return it == t.models.end() ? nullptr : it->second;
}

aclError fillIODims(const std::string &name, const Shape &shape,
                    aclmdlIODims *dims, const char *fn) {
  if (shape.size() > ACL_MAX_DIM_CNT)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": rank " +
                                                 std::to_string(shape.size()) +
                                                 " exceeds ACL_MAX_DIM_CNT");
  std::memset(dims, 0, sizeof(*dims));
  std::strncpy(dims->name, name.c_str(), ACL_MAX_TENSOR_NAME_LEN - 1);
  dims->dimCount = shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    dims->dims[i] = shape[i];
  return ACL_SUCCESS;
}

aclError noModel(const char *fn, uint32_t id) {
  return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": model id " +
                                               std::to_string(id) +
                                               " is not loaded");
}

} // namespace geflow::exec::capi

namespace {

/// Dataset -> buffers; null dataset = no buffers.
aclError toBuffers(const aclmdlDataset *ds, const char *fn, const char *what,
                   std::vector<exec::Buffer> *out) {
  if (!ds)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": null " + what + " dataset");
  for (size_t i = 0; i < ds->buffers.size(); ++i) {
    const aclDataBuffer *b = ds->buffers[i];
    out->push_back({b->data, b->size});
  }
  return ACL_SUCCESS;
}

aclDataType toAclDataType(om::DataType t) {
  switch (t) {
  case om::DT_FLOAT:
    return ACL_FLOAT;
  case om::DT_FLOAT16:
    return ACL_FLOAT16;
  case om::DT_INT8:
    return ACL_INT8;
  case om::DT_UINT8:
    return ACL_UINT8;
  case om::DT_INT16:
    return ACL_INT16;
  case om::DT_UINT16:
    return ACL_UINT16;
  case om::DT_INT32:
    return ACL_INT32;
  case om::DT_INT64:
    return ACL_INT64;
  case om::DT_UINT32:
    return ACL_UINT32;
  case om::DT_UINT64:
    return ACL_UINT64;
  case om::DT_BOOL:
    return ACL_BOOL;
  case om::DT_DOUBLE:
    return ACL_DOUBLE;
  case om::DT_BF16:
    return ACL_BF16;
  default:
    return ACL_DT_UNDEFINED;
  }
}

aclError getDims(const std::vector<exec::TensorInfo> *infos, size_t index,
                 aclmdlIODims *dims, const char *fn) {
  if (!infos || !dims)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
  if (index >= infos->size())
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": index " + std::to_string(index) +
                        " out of range (" + std::to_string(infos->size()) +
                        ")");
  const exec::TensorInfo &t = (*infos)[index];
  return exec::capi::fillIODims(t.name, t.shape, dims, fn);
}

aclFormat formatOf(const std::vector<exec::TensorInfo> &infos, size_t i) {
  if (i >= infos.size())
    return ACL_FORMAT_UNDEFINED;
  return infos[i].shape.size() == 4 ? ACL_FORMAT_NCHW : ACL_FORMAT_ND;
}

aclError indexByName(const std::vector<exec::TensorInfo> *infos,
                     const char *name, size_t *index, const char *fn) {
  if (!infos || !name || !index)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
  for (size_t i = 0; i < infos->size(); ++i)
    if ((*infos)[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  return failWith(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": no tensor named '" + name + "'");
}

} // namespace

extern "C" {

aclError geflowmdlLoadSharedWeights(uint32_t modelId, int32_t priority,
                                    uint32_t *contextModelId) {
  const char *fn = "geflowmdlLoadSharedWeights";
  if (!contextModelId)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
  if (priority < -1 || priority > GEFLOWRT_STREAM_PRIORITY_LOWEST)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": priority " + std::to_string(priority) +
                        " out of range [-1, " +
                        std::to_string(GEFLOWRT_STREAM_PRIORITY_LOWEST) + "]");
  std::shared_ptr<exec::capi::AclModel> m = findModel(modelId);
  if (!m)
    return noModel(fn, modelId);
  std::unique_ptr<exec::LoadedModel> context;
  if (rt::Status st = m->model->createContext(priority, &context); !st.isOk())
    return toAclError(st);
  *contextModelId = exec::capi::addModel(std::move(context));
  return ACL_SUCCESS;
}

aclError aclmdlUnload(uint32_t modelId) {
  std::shared_ptr<exec::capi::AclModel> doomed;
  {
    exec::capi::ModelTable &t = modelTable();
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.models.find(modelId);
    if (it == t.models.end())
      return noModel("aclmdlUnload", modelId);
    doomed = std::move(it->second);
    t.models.erase(it);
  }
  return ACL_SUCCESS; // the model drains and dies here, outside the lock
}

aclError aclmdlExecute(uint32_t modelId, const aclmdlDataset *input,
                       aclmdlDataset *output) {
  std::shared_ptr<exec::capi::AclModel> m = findModel(modelId);
  if (!m)
    return noModel("aclmdlExecute", modelId);
  std::vector<exec::Buffer> in, out;
  aclError err = toBuffers(input, "aclmdlExecute", "input", &in);
  if (err == ACL_SUCCESS)
    err = toBuffers(output, "aclmdlExecute", "output", &out);
  size_t gear = 0;
  if (err == ACL_SUCCESS)
    err = gearOfExecution(*m->model, "aclmdlExecute", &in, &gear);
  if (err != ACL_SUCCESS)
    return err;
  return toAclError(m->model->execute(in, out, nullptr, gear));
}

aclError aclmdlExecuteAsync(uint32_t modelId, const aclmdlDataset *input,
                            aclmdlDataset *output, aclrtStream stream) {
  std::shared_ptr<exec::capi::AclModel> m = findModel(modelId);
  if (!m)
    return noModel("aclmdlExecuteAsync", modelId);
  std::vector<exec::Buffer> in, out;
  aclError err = toBuffers(input, "aclmdlExecuteAsync", "input", &in);
  if (err == ACL_SUCCESS)
    err = toBuffers(output, "aclmdlExecuteAsync", "output", &out);
  size_t gear = 0;
  if (err == ACL_SUCCESS)
    err = gearOfExecution(*m->model, "aclmdlExecuteAsync", &in, &gear);
  if (err != ACL_SUCCESS)
    return err;
  return toAclError(
      m->model->executeAsync(in, out, static_cast<rt::Stream *>(stream), gear));
}

aclmdlDesc *aclmdlCreateDesc(void) { return new aclmdlDesc; }

aclError aclmdlDestroyDesc(aclmdlDesc *modelDesc) {
  if (!modelDesc)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDesc: null");
  delete modelDesc;
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc *modelDesc, uint32_t modelId) {
  if (!modelDesc)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclmdlGetDesc: null desc");
  std::shared_ptr<exec::capi::AclModel> m = findModel(modelId);
  if (!m)
    return noModel("aclmdlGetDesc", modelId);
  exec::capi::describe(*m->model, modelId, modelDesc);
  return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc *d) { return d ? d->inputs.size() : 0; }
size_t aclmdlGetNumOutputs(aclmdlDesc *d) { return d ? d->outputs.size() : 0; }

size_t aclmdlGetInputSizeByIndex(aclmdlDesc *d, size_t i) {
  return d && i < d->inputs.size() ? size_t(d->inputs[i].bytes) : 0;
}
size_t aclmdlGetOutputSizeByIndex(aclmdlDesc *d, size_t i) {
  return d && i < d->outputs.size() ? size_t(d->outputs[i].bytes) : 0;
}

const char *aclmdlGetInputNameByIndex(const aclmdlDesc *d, size_t i) {
  return d && i < d->inputs.size() ? d->inputs[i].name.c_str() : "";
}
const char *aclmdlGetOutputNameByIndex(const aclmdlDesc *d, size_t i) {
  return d && i < d->outputs.size() ? d->outputs[i].name.c_str() : "";
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc *d, const char *name,
                                   size_t *index) {
  return indexByName(d ? &d->inputs : nullptr, name, index,
                     "aclmdlGetInputIndexByName");
}
aclError aclmdlGetOutputIndexByName(const aclmdlDesc *d, const char *name,
                                    size_t *index) {
  return indexByName(d ? &d->outputs : nullptr, name, index,
                     "aclmdlGetOutputIndexByName");
}

aclError aclmdlGetInputDims(const aclmdlDesc *d, size_t i, aclmdlIODims *dims) {
  return getDims(d ? &d->inputs : nullptr, i, dims, "aclmdlGetInputDims");
}
aclError aclmdlGetOutputDims(const aclmdlDesc *d, size_t i,
                             aclmdlIODims *dims) {
  return getDims(d ? &d->outputs : nullptr, i, dims, "aclmdlGetOutputDims");
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc *d, size_t i) {
  return d ? formatOf(d->inputs, i) : ACL_FORMAT_UNDEFINED;
}
aclFormat aclmdlGetOutputFormat(const aclmdlDesc *d, size_t i) {
  return d ? formatOf(d->outputs, i) : ACL_FORMAT_UNDEFINED;
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc *d, size_t i) {
  return d && i < d->inputs.size() ? toAclDataType(d->inputs[i].dtype)
                                   : ACL_DT_UNDEFINED;
}
aclDataType aclmdlGetOutputDataType(const aclmdlDesc *d, size_t i) {
  return d && i < d->outputs.size() ? toAclDataType(d->outputs[i].dtype)
                                    : ACL_DT_UNDEFINED;
}

aclmdlDataset *aclmdlCreateDataset(void) { return new aclmdlDataset; }

aclError aclmdlDestroyDataset(const aclmdlDataset *dataset) {
  if (!dataset)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclmdlDestroyDataset: null");
  delete dataset;
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset *dataset,
                                aclDataBuffer *dataBuffer) {
  if (!dataset || !dataBuffer)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclmdlAddDatasetBuffer: null");
  dataset->buffers.push_back(dataBuffer);
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset *dataset) {
  return dataset ? dataset->buffers.size() : 0;
}

aclDataBuffer *aclmdlGetDatasetBuffer(const aclmdlDataset *dataset,
                                      size_t index) {
  return dataset && index < dataset->buffers.size() ? dataset->buffers[index]
                                                    : nullptr;
}

aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) {
  auto *b = new aclDataBuffer;
  b->data = data;
  b->size = size;
  return b;
}

aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) {
  if (!dataBuffer)
    return failWith(ACL_ERROR_INVALID_PARAM, "aclDestroyDataBuffer: null");
  delete dataBuffer;
  return ACL_SUCCESS;
}

void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) {
  return dataBuffer ? dataBuffer->data : nullptr;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) {
  return dataBuffer ? dataBuffer->size : 0;
}

} // extern "C"
