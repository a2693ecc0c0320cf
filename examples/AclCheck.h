/*===- AclCheck.h - The samples' way out of a failed acl* call ------------===*
 *
 * The host samples are written the way CANN samples are: every acl* call is
 * checked, and a failure ends the program with the call, the error's name
 * and aclGetRecentErrMsg() on one line. C and C++.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_EXAMPLES_ACLCHECK_H
#define GEFLOW_EXAMPLES_ACLCHECK_H

#include "acl/acl_rt.h"

#include <stdio.h>
#include <stdlib.h>

#define CHECK_ACL(expr)                                                        \
  do {                                                                         \
    aclError e_ = (expr);                                                      \
    if (e_ != ACL_SUCCESS) {                                                   \
      fprintf(stderr, "error: %s failed: %s (%d): %s\n", #expr,                \
              geflowrtGetErrorName(e_), e_, aclGetRecentErrMsg());             \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

#endif /* GEFLOW_EXAMPLES_ACLCHECK_H */
