//===- Reduce.cpp - Reduce kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerReduceKernels(KernelRegistry &) {}
