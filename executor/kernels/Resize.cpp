//===- Resize.cpp - Resize kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerResizeKernels(KernelRegistry &) {}
