//===- Conv.cpp - Conv kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerConvKernels(KernelRegistry &) {}
