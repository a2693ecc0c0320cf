//===- AclMdlModels.h - What the aclmdl* files share ------------*- C++ -*-===//
//
// The C API's handles and its table of loaded models, shared by AclMdl.cpp
// (load, describe, execute) and AclMdlGears.cpp (the dynamic batch / image
// size / dims calls). Internal to executor/runner/capi.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_EXECUTOR_RUNNER_CAPI_ACLMDLMODELS_H
#define GEFLOW_EXECUTOR_RUNNER_CAPI_ACLMDLMODELS_H

#include "acl/acl_mdl.h"
#include "executor/runner/ModelExecutor.h"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

struct aclDataBuffer {
  void *data = nullptr;
  size_t size = 0;
};

struct aclmdlDataset {
  std::vector<aclDataBuffer *> buffers;
};

/// A model as AscendCL describes it. With gears: inputs are the model's,
/// shaped as compiled (-1 where a gear fills in) and sized for the largest
/// gear, then ACL_DYNAMIC_TENSOR_NAME; outputs are the largest gear's.
struct aclmdlDesc {
  uint32_t modelId = 0;
  std::vector<geflow::exec::TensorInfo> inputs, outputs;
  geflow::om::GearTable gears; // mode STATIC, no gears: a static model
  std::vector<geflow::exec::Shapes> gearInputs, gearOutputs; // by gear
};

namespace geflow::exec::capi {

/// A loaded model and the gear the last aclmdlSet* call chose (-1: none).
struct AclModel {
  std::shared_ptr<LoadedModel> model;
  int currentGear = -1; // guarded by ModelTable::mu
};

struct ModelTable {
  std::mutex mu; // guards every field and AclModel::currentGear
  uint32_t nextId = 1;
  std::map<uint32_t, std::shared_ptr<AclModel>> models;
};

/// The process's table; never destroyed, so models left loaded at exit do
/// not outlive their device.
ModelTable &modelTable();
/// The device the aclrt* C API has made current, driven through aclrt*, so
/// a model shares streams and memory with the program's own aclrt* work.
std::shared_ptr<DeviceTarget> makeAclDeviceTarget();
/// Enters `model` in the table; its new id.
uint32_t addModel(std::unique_ptr<LoadedModel> model);
/// The model `id`, or null.
std::shared_ptr<AclModel> findModel(uint32_t id);
/// ACL_ERROR_INVALID_PARAM: "FN: model id ID is not loaded".
aclError noModel(const char *fn, uint32_t id);

/// `dims` = {name, shape}; a rank over ACL_MAX_DIM_CNT fails naming `fn`.
aclError fillIODims(const std::string &name, const Shape &shape,
                    aclmdlIODims *dims, const char *fn);
/// Fills `desc` as aclmdlGetDesc does for model `id`.
void describe(const LoadedModel &model, uint32_t id, aclmdlDesc *desc);
/// The element count of ACL_DYNAMIC_TENSOR_NAME's int64 buffer: the values
/// that fill one gear's -1s.
size_t dynamicTensorCount(const om::GearTable &gears);
/// Gear chosen by the ACL_DYNAMIC_TENSOR_NAME buffer (the last input) of an
/// execution's inputs, which it removes from `inputs`; gear 0 for a static
/// model. Fails with ACL_ERROR_INVALID_PARAM naming `fn`.
aclError gearOfExecution(const LoadedModel &model, const char *fn,
                         std::vector<Buffer> *inputs, size_t *gear);

} // namespace geflow::exec::capi

#endif // GEFLOW_EXECUTOR_RUNNER_CAPI_ACLMDLMODELS_H
