//===- Pool.cpp - Pool kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerPoolKernels(KernelRegistry &) {}
