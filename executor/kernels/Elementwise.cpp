//===- Elementwise.cpp - Elementwise kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerElementwiseKernels(KernelRegistry &) {}
