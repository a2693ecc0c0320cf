//===- ShapeOperands.cpp --------------------------------------------------===//

#include "tools/driver/ShapeOperands.h"

#include "executor/kernels/data_dependent/DataDependent.h"

#include <cctype>

using namespace geflow;

bool driver::isShapeOperand(const std::string &op, int position) {
  if (op == "Reshape" || op == "Expand" || op == "Tile" || op == "TopK" ||
      op == "Split" || op == "Squeeze" || op == "Unsqueeze" ||
      op == "ReduceSum" || op == "OneHot")
    return position == 1;
  if (op == "MaxUnpool")
    return position == 2;
  if (op == "Slice" || op == "Pad" || op == "Resize" || op == "Upsample")
    return position >= 1;
  // The signal ops: window size, dft_length, frame_step and frame_length, and
  // every operand of MelWeightMatrix (its result is a table of them).
  if (op == "DFT")
    return position == 1;
  if (op == "STFT")
    return position == 1 || position == 3;
  // The other reductions took their axes as an operand only from opset 18;
  // converted down to 17 they are attributes, so only ReduceSum is listed.
  return op == "ConstantOfShape" || op == "Range" || op == "HannWindow" ||
         op == "HammingWindow" || op == "BlackmanWindow" ||
         op == "MelWeightMatrix";
}

// The kernels' list is the one list: the ONNX name in snake_case is theirs.
bool driver::isDataDependentOnnxOp(const std::string &op) {
  return kernels::isDataDependent(dataDependentKernelType(op));
}

bool driver::isControlFlowOnnxOp(const std::string &op) { return op == "If"; }

std::string driver::dataDependentKernelType(const std::string &op) {
  std::string snake;
  for (size_t i = 0; i < op.size(); ++i) {
    unsigned char c = op[i];
    if (std::isupper(c) && i > 0)
      snake += '_';
    snake += static_cast<char>(std::tolower(c));
  }
  return snake;
}

bool driver::isShapeNotStaticError(const std::string &message) {
  return message.find("no static shape") != std::string::npos ||
         message.find("the rank is unknown") != std::string::npos;
}
