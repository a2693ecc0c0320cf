//===- AclMdlLoad.cpp - aclmdlLoad* and aclmdlQuerySize* ------------------===//
//
// A model comes from a file or from bytes in memory, and its workspace and
// weights live either in memory geflow takes from the device's pool or in
// memory the caller placed (the *WithMem calls, sized by aclmdlQuerySize).
//
//===----------------------------------------------------------------------===//
#include "acl/acl_mdl.h"
#include "acl/acl_rt.h"
#include "executor/model/OmPlacedWeights.h"
#include "executor/runner/capi/AclMdlModels.h"
#include "runtime/AclError.h"

#include <string>

using geflow::rt::capi::failWith;
using geflow::rt::capi::toAclError;
namespace rt = geflow::rt;
namespace om = geflow::om;
namespace exec = geflow::exec;

namespace {

/// Where a model comes from: a file, or `size` bytes at `bytes`.
struct ModelSource {
  const char *path = nullptr;
  const void *bytes = nullptr;
  size_t size = 0;

  std::string name() const { return path ? path : "model in memory"; }
  rt::Status read(std::unique_ptr<om::LoadedOm> *out) const {
    if (path)
      return om::loadOmFile(path, out);
    return om::loadOmBytes(std::string(static_cast<const char *>(bytes), size),
                           name(), out);
  }
};

/// Memory the caller placed for a model; null pointers leave it to geflow.
struct PlacedMemory {
  void *work = nullptr;
  size_t workSize = 0;
  void *weights = nullptr;
  size_t weightSize = 0;
};

aclError checkSource(const ModelSource &src, const char *fn) {
  if (src.path ? !*src.path : (!src.bytes || src.size == 0))
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": null or empty model");
  return ACL_SUCCESS;
}

/// The workspace every execution needs (the model's plan holds the largest
/// gear's, which the loader has checked) and the bytes of the weights.
void modelSizes(const om::LoadedOm &om, size_t *work, size_t *weights) {
  *work = static_cast<size_t>(om.memoryPlan().workspace_size());
  *weights = static_cast<size_t>(om.weightsSize());
}

aclError querySize(const ModelSource &src, size_t *workSize, size_t *weightSize,
                   const char *fn) {
  if (!workSize || !weightSize)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
  if (aclError err = checkSource(src, fn))
    return err;
  std::unique_ptr<om::LoadedOm> loaded;
  if (rt::Status st = src.read(&loaded); !st.isOk())
    return toAclError(st);
  modelSizes(*loaded, workSize, weightSize);
  return ACL_SUCCESS;
}

aclError tooSmall(const char *fn, const ModelSource &src, const char *what,
                  size_t given, size_t needed) {
  return failWith(ACL_ERROR_INVALID_PARAM,
                  std::string(fn) + ": '" + src.name() + "': " + what +
                      " memory of " + std::to_string(given) +
                      " bytes is smaller than the " + std::to_string(needed) +
                      " the model needs (aclmdlQuerySize)");
}

aclError load(const ModelSource &src, const PlacedMemory &placed,
              uint32_t *modelId, const char *fn) {
  if (!modelId)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
  if (aclError err = checkSource(src, fn))
    return err;
  int32_t device = -1;
  if (aclrtGetDevice(&device) != ACL_SUCCESS)
    return failWith(ACL_ERROR_RT_CONTEXT_NULL,
                    std::string(fn) +
                        ": no device is set: call aclrtSetDevice first");
  std::unique_ptr<om::LoadedOm> loaded;
  if (rt::Status st = src.read(&loaded); !st.isOk())
    return toAclError(st);
  size_t work = 0, weights = 0;
  modelSizes(*loaded, &work, &weights);
  if (placed.work && placed.workSize < work)
    return tooSmall(fn, src, "work", placed.workSize, work);
  if (placed.weights && placed.weightSize < weights)
    return tooSmall(fn, src, "weight", placed.weightSize, weights);
  if (placed.weights)
    loaded = om::placeWeights(std::move(loaded), placed.weights);
  exec::LoadOptions options;
  options.workspace = placed.work;
  std::unique_ptr<exec::LoadedModel> model;
  rt::Status st =
      exec::LoadedModel::create(exec::capi::makeAclDeviceTarget(),
                                std::move(loaded), src.name(), &model, options);
  if (!st.isOk())
    return toAclError(st);
  *modelId = exec::capi::addModel(std::move(model));
  return ACL_SUCCESS;
}

} // namespace

extern "C" {

aclError aclmdlLoadFromFile(const char *modelPath, uint32_t *modelId) {
  return load({modelPath}, {}, modelId, "aclmdlLoadFromFile");
}

aclError aclmdlLoadFromMem(const void *model, size_t modelSize,
                           uint32_t *modelId) {
  return load({nullptr, model, modelSize}, {}, modelId, "aclmdlLoadFromMem");
}

aclError aclmdlLoadFromFileWithMem(const char *modelPath, uint32_t *modelId,
                                   void *workPtr, size_t workSize,
                                   void *weightPtr, size_t weightSize) {
  return load({modelPath}, {workPtr, workSize, weightPtr, weightSize}, modelId,
              "aclmdlLoadFromFileWithMem");
}

aclError aclmdlLoadFromMemWithMem(const void *model, size_t modelSize,
                                  uint32_t *modelId, void *workPtr,
                                  size_t workSize, void *weightPtr,
                                  size_t weightSize) {
  return load({nullptr, model, modelSize},
              {workPtr, workSize, weightPtr, weightSize}, modelId,
              "aclmdlLoadFromMemWithMem");
}

aclError aclmdlQuerySize(const char *fileName, size_t *workSize,
                         size_t *weightSize) {
  return querySize({fileName}, workSize, weightSize, "aclmdlQuerySize");
}

aclError aclmdlQuerySizeFromMem(const void *model, size_t modelSize,
                                size_t *workSize, size_t *weightSize) {
  return querySize({nullptr, model, modelSize}, workSize, weightSize,
                   "aclmdlQuerySizeFromMem");
}

} // extern "C"
