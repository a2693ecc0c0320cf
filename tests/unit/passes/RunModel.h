//===- RunModel.h - run an emitted model on a fresh simulated device -*- C++
//-*-===//
#ifndef GEFLOW_TESTS_UNIT_PASSES_RUNMODEL_H
#define GEFLOW_TESTS_UNIT_PASSES_RUNMODEL_H

#include "executor/model/OmModel.h"
#include "executor/runner/ModelExecutor.h"
#include "runtime/Device.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>
#include <vector>

namespace geflow::passes::fixtures {

struct RunResult {
  std::vector<std::vector<float>> outputs;
  rt::VirtualNs deviceTimeNs = 0;
};

/// Writes `model` to an OM file, loads it on a new device and runs it once
/// on float32 `inputs`; every output is sized from the model.
inline RunResult runModel(const om::OmModel &model,
                          const std::vector<std::vector<float>> &inputs) {
  RunResult result;
  std::unique_ptr<rt::Device> device;
  rt::DeviceOptions options;
  options.workerThreads = 2;
  rt::Status st = rt::Device::create(options, &device);
  EXPECT_TRUE(st.isOk()) << st.toString();
  std::string path = ::testing::TempDir() + "geflow_run_model_" +
                     std::to_string(::getpid()) + ".om";
  st = om::writeOmFile(model, path);
  EXPECT_TRUE(st.isOk()) << st.toString();
  std::unique_ptr<exec::LoadedModel> loaded;
  st = exec::LoadedModel::load(*device, path, &loaded);
  std::remove(path.c_str());
  EXPECT_TRUE(st.isOk()) << st.toString();
  if (!loaded)
    return result;
  std::vector<exec::Buffer> in, out;
  for (const auto &x : inputs)
    in.push_back({const_cast<float *>(x.data()), x.size() * sizeof(float)});
  for (const exec::TensorInfo &info : loaded->outputs())
    result.outputs.emplace_back(info.bytes / sizeof(float), -1.0f);
  for (auto &y : result.outputs)
    out.push_back({y.data(), y.size() * sizeof(float)});
  exec::ExecutionStats stats;
  st = loaded->execute(in, out, &stats);
  EXPECT_TRUE(st.isOk()) << st.toString();
  result.deviceTimeNs = stats.deviceTimeNs;
  return result;
}

} // namespace geflow::passes::fixtures

#endif // GEFLOW_TESTS_UNIT_PASSES_RUNMODEL_H
