# lit configuration for geflow's FileCheck tests. Every pass and every dialect
# family has a `.mlir` (or `.test`) file here, run through geflow-opt or geflow.
import os
import lit.formats

config.name = "geflow"
config.test_format = lit.formats.ShTest(not config.execute_external)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.geflow_obj_root, "tests", "lit")

# Our tools first, then LLVM's FileCheck, not and count.
config.environment["PATH"] = os.pathsep.join(
    [config.geflow_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])]
)
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
config.substitutions.append(("%models", config.geflow_models_dir))
# Python with onnx and numpy, for tests that write their own small models.
config.substitutions.append(("%python", config.geflow_python))
# The annotated models of tests/models/streams, generated at build time.
config.substitutions.append(("%stream_models", config.geflow_stream_models_dir))
