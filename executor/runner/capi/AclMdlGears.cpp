//===- AclMdlGears.cpp - aclmdl* for models with gears --------------------===//
//
// AscendCL's dynamic batch / image size / dims calls over LoadedModel's gears.
// As in AscendCL, the gear of an execution travels in the input dataset: the
// aclmdlSet* calls write the gear's values (int64) into the buffer of the
// extra input ACL_DYNAMIC_TENSOR_NAME, and the execution reads them there;
// the model also remembers the gear last set for aclmdlGetCurOutputDims.
//
//===----------------------------------------------------------------------===//

#include "acl/acl_mdl.h"
#include "executor/runner/capi/AclMdlModels.h"
#include "runtime/AclError.h"

#include <cstring>

using geflow::rt::capi::failWith;
namespace om = geflow::om;
namespace exec = geflow::exec;
using namespace geflow::exec::capi;
using geflow::exec::largestGear;
using geflow::exec::Shape;

namespace {

const char *modeName(om::GearTable::Mode mode) {
  switch (mode) {
  case om::GearTable::DYNAMIC_BATCH:
    return "dynamic batch";
  case om::GearTable::DYNAMIC_IMAGE_SIZE:
    return "dynamic image size";
  case om::GearTable::DYNAMIC_DIMS:
    return "dynamic dims";
  default:
    return "static";
  }
}

/// The gears as ATC's options spell them: "1,2,4" for batches,
/// "224,224;448,448" for image sizes and dims.
std::string gearList(const om::GearTable &gears) {
  std::string text;
  const char *between =
      gears.mode() == om::GearTable::DYNAMIC_BATCH ? "," : ";";
  for (const om::Gear &g : gears.gear()) {
    if (!text.empty())
      text += between;
    for (int i = 0; i < g.dims_size(); ++i)
      text += (i ? "," : "") + std::to_string(g.dims(i));
  }
  return text;
}

int gearWithDims(const om::GearTable &gears, const int64_t *values,
                 size_t count) {
  for (int g = 0; g < gears.gear_size(); ++g) {
    const om::Gear &gear = gears.gear(g);
    if (size_t(gear.dims_size()) == count &&
        std::equal(gear.dims().begin(), gear.dims().end(), values))
      return g;
  }
  return -1;
}

/// What every aclmdlSet* call does once its values are known: check the
/// model, the index and the dataset, find the gear, write its values.
aclError setGear(const char *fn, uint32_t modelId, aclmdlDataset *dataset,
                 size_t index, om::GearTable::Mode mode,
                 const std::vector<int64_t> &values, const std::string &what) {
  std::shared_ptr<AclModel> m = findModel(modelId);
  if (!m)
    return noModel(fn, modelId);
  const om::GearTable &gears = m->model->om().modelDef().gears();
  std::string model = "model id " + std::to_string(modelId);
  if (gears.mode() != mode || gears.gear_size() == 0)
    return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + model +
                                                 " has no " + modeName(mode) +
                                                 " gears (it is " +
                                                 modeName(gears.mode()) + ")");
  size_t dynamicIndex = m->model->inputs().size();
  if (index != dynamicIndex)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": index " + std::to_string(index) +
                        " is not the " ACL_DYNAMIC_TENSOR_NAME " input of " +
                        model + " (" + std::to_string(dynamicIndex) + ")");
  int g = gearWithDims(gears, values.data(), values.size());
  if (g < 0)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + what +
                        " is not a compiled gear of " + model +
                        " (gears: " + gearList(gears) + ")");
  if (!dataset || index >= dataset->buffers.size())
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": the dataset has no buffer at index " +
                        std::to_string(index) + " for " +
                        ACL_DYNAMIC_TENSOR_NAME);
  aclDataBuffer *b = dataset->buffers[index];
  size_t bytes = values.size() * sizeof(int64_t);
  if (!b || !b->data || b->size < bytes)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) +
                        ": the " ACL_DYNAMIC_TENSOR_NAME " buffer holds " +
                        std::to_string(b ? b->size : 0) + " bytes, needs " +
                        std::to_string(bytes));
  std::memcpy(b->data, values.data(), bytes);
  ModelTable &t = modelTable();
  std::lock_guard<std::mutex> lock(t.mu);
  m->currentGear = g;
  return ACL_SUCCESS;
}

aclError nullArgument(const char *fn) {
  return failWith(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": null");
}

} // namespace

namespace geflow::exec::capi {

size_t dynamicTensorCount(const om::GearTable &gears) {
  return gears.gear_size() > 0 ? size_t(gears.gear(0).dims_size()) : 0;
}

void describe(const LoadedModel &model, uint32_t id, aclmdlDesc *desc) {
  desc->modelId = id;
  desc->gears = model.om().modelDef().gears();
  desc->gearInputs = model.gearInputShapes();
  desc->gearOutputs = model.gearOutputShapes();
  if (!model.hasGears()) {
    desc->inputs = model.inputs();
    desc->outputs = model.outputs();
    return;
  }
  size_t largest = size_t(largestGear(desc->gearInputs));
  desc->inputs = model.inputs(largest);
  for (size_t i = 0; i < desc->inputs.size(); ++i)
    if (int(i) < desc->gears.input_size())
      desc->inputs[i].shape.assign(desc->gears.input(int(i)).dim().begin(),
                                   desc->gears.input(int(i)).dim().end());
  size_t count = dynamicTensorCount(desc->gears);
  TensorInfo dynamic;
  dynamic.name = ACL_DYNAMIC_TENSOR_NAME;
  dynamic.dtype = om::DT_INT64;
  dynamic.shape = {int64_t(count)};
  dynamic.layout = "ND";
  dynamic.bytes = count * sizeof(int64_t);
  desc->inputs.push_back(dynamic);
  desc->outputs = model.outputs(largest);
}

aclError gearOfExecution(const LoadedModel &model, const char *fn,
                         std::vector<Buffer> *inputs, size_t *gear) {
  *gear = 0;
  if (!model.hasGears())
    return ACL_SUCCESS;
  const om::GearTable &gears = model.om().modelDef().gears();
  size_t n = model.inputs().size();
  if (inputs->size() != n + 1)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + std::to_string(inputs->size()) +
                        " input buffers given, the model has gears and takes " +
                        std::to_string(n) + " inputs then the " +
                        ACL_DYNAMIC_TENSOR_NAME + " buffer");
  const Buffer &dynamic = inputs->back();
  size_t count = dynamicTensorCount(gears);
  if (!dynamic.data || dynamic.size < count * sizeof(int64_t))
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) +
                        ": the " ACL_DYNAMIC_TENSOR_NAME " buffer holds " +
                        std::to_string(dynamic.size) + " bytes, needs " +
                        std::to_string(count * sizeof(int64_t)));
  std::vector<int64_t> values(count);
  std::memcpy(values.data(), dynamic.data, count * sizeof(int64_t));
  int g = gearWithDims(gears, values.data(), count);
  if (g < 0)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) +
                        ": the " ACL_DYNAMIC_TENSOR_NAME
                        " buffer names no compiled gear (gears: " +
                        gearList(gears) +
                        "): set one with aclmdlSetDynamicBatchSize, "
                        "aclmdlSetDynamicHWSize or aclmdlSetInputDynamicDims");
  inputs->pop_back();
  *gear = size_t(g);
  return ACL_SUCCESS;
}

} // namespace geflow::exec::capi

extern "C" {

aclError aclmdlGetDynamicBatch(const aclmdlDesc *modelDesc,
                               aclmdlBatch *batch) {
  if (!modelDesc || !batch)
    return nullArgument("aclmdlGetDynamicBatch");
  std::memset(batch, 0, sizeof(*batch));
  const om::GearTable &gears = modelDesc->gears;
  if (gears.mode() != om::GearTable::DYNAMIC_BATCH)
    return ACL_SUCCESS;
  for (const om::Gear &g : gears.gear())
    if (batch->batchCount < ACL_MAX_BATCH_NUM && g.dims_size() == 1)
      batch->batch[batch->batchCount++] = uint64_t(g.dims(0));
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc *modelDesc, size_t, aclmdlHW *hw) {
  if (!modelDesc || !hw)
    return nullArgument("aclmdlGetDynamicHW");
  std::memset(hw, 0, sizeof(*hw));
  const om::GearTable &gears = modelDesc->gears;
  if (gears.mode() != om::GearTable::DYNAMIC_IMAGE_SIZE)
    return ACL_SUCCESS;
  for (const om::Gear &g : gears.gear())
    if (hw->hwCount < ACL_MAX_HW_NUM && g.dims_size() == 2) {
      hw->hw[hw->hwCount][0] = uint64_t(g.dims(0));
      hw->hw[hw->hwCount][1] = uint64_t(g.dims(1));
      ++hw->hwCount;
    }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc *modelDesc, size_t,
                                        size_t *gearCount) {
  if (!modelDesc || !gearCount)
    return nullArgument("aclmdlGetInputDynamicGearCount");
  const om::GearTable &gears = modelDesc->gears;
  *gearCount = gears.mode() == om::GearTable::DYNAMIC_DIMS
                   ? size_t(gears.gear_size())
                   : 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc *modelDesc, size_t,
                                   aclmdlIODims *dims, size_t gearCount) {
  const char *fn = "aclmdlGetInputDynamicDims";
  if (!modelDesc || !dims)
    return nullArgument(fn);
  const om::GearTable &gears = modelDesc->gears;
  if (gears.mode() != om::GearTable::DYNAMIC_DIMS)
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": model id " +
                        std::to_string(modelDesc->modelId) +
                        " has no dynamic dims gears (it is " +
                        modeName(gears.mode()) + ")");
  if (gearCount != size_t(gears.gear_size()))
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": gearCount " +
                        std::to_string(gearCount) + ", the model has " +
                        std::to_string(gears.gear_size()) + " gears");
  for (size_t g = 0; g < gearCount; ++g) {
    Shape all;
    for (const Shape &s : modelDesc->gearInputs[g])
      all.insert(all.end(), s.begin(), s.end());
    if (aclError err = fillIODims("", all, &dims[g], fn))
      return err;
  }
  return ACL_SUCCESS;
}

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset *dataset,
                                   size_t index, uint64_t batchSize) {
  return setGear("aclmdlSetDynamicBatchSize", modelId, dataset, index,
                 om::GearTable::DYNAMIC_BATCH, {int64_t(batchSize)},
                 "batch size " + std::to_string(batchSize));
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset *dataset,
                                size_t index, uint64_t height, uint64_t width) {
  return setGear(
      "aclmdlSetDynamicHWSize", modelId, dataset, index,
      om::GearTable::DYNAMIC_IMAGE_SIZE, {int64_t(height), int64_t(width)},
      "image size " + std::to_string(height) + "," + std::to_string(width));
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset *dataset,
                                   size_t index, const aclmdlIODims *dims) {
  const char *fn = "aclmdlSetInputDynamicDims";
  if (!dims)
    return nullArgument(fn);
  std::shared_ptr<AclModel> m = findModel(modelId);
  if (!m)
    return noModel(fn, modelId);
  // The inputs' full shapes, one after the other: the -1s of the compiled
  // shapes are the gear's values, every other dimension must be as compiled.
  const om::GearTable &gears = m->model->om().modelDef().gears();
  size_t total = 0;
  for (const om::ShapeDef &compiled : gears.input())
    total += size_t(compiled.dim_size());
  bool asCompiled = dims->dimCount == total && total <= ACL_MAX_DIM_CNT;
  std::vector<int64_t> values;
  size_t k = 0;
  for (const om::ShapeDef &compiled : gears.input())
    for (int64_t d : compiled.dim()) {
      if (!asCompiled)
        break;
      int64_t v = dims->dims[k++];
      if (d < 0)
        values.push_back(v);
      else
        asCompiled = v == d;
    }
  if (!asCompiled)
    values.assign(1, -1); // no gear has a negative value
  std::string given;
  for (size_t i = 0; i < dims->dimCount && i < ACL_MAX_DIM_CNT; ++i)
    given += (i ? "," : "") + std::to_string(dims->dims[i]);
  return setGear(fn, modelId, dataset, index, om::GearTable::DYNAMIC_DIMS,
                 values, "dims " + given);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc *modelDesc, size_t index,
                                aclmdlIODims *dims) {
  const char *fn = "aclmdlGetCurOutputDims";
  if (!modelDesc || !dims)
    return nullArgument(fn);
  if (index >= modelDesc->outputs.size())
    return failWith(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": index " + std::to_string(index) +
                        " out of range (" +
                        std::to_string(modelDesc->outputs.size()) + ")");
  const std::string &name = modelDesc->outputs[index].name;
  if (modelDesc->gears.gear_size() == 0)
    return fillIODims(name, modelDesc->outputs[index].shape, dims, fn);
  std::shared_ptr<AclModel> m = findModel(modelDesc->modelId);
  if (!m)
    return noModel(fn, modelDesc->modelId);
  int gear = -1;
  {
    ModelTable &t = modelTable();
    std::lock_guard<std::mutex> lock(t.mu);
    gear = m->currentGear;
  }
  if (gear < 0)
    gear = largestGear(modelDesc->gearInputs);
  return fillIODims(name, modelDesc->gearOutputs[size_t(gear)][index], dims,
                    fn);
}

} // extern "C"
