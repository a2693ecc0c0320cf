//===- DataMovement.cpp - DataMovement kernels -------------------------------------===//

#include "executor/kernels/KernelRegistry.h"

void geflow::kernels::registerDataMovementKernels(KernelRegistry &) {}
