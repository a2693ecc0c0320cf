//===- Gemm.cpp - Gemm kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerGemmKernels(KernelRegistry &) {}
