//===- AclSession.h - aclInit and device 0 for one C API test ---*- C++ -*-===//
#ifndef GEFLOW_TESTS_UNIT_RUNTIME_ACLSESSION_H
#define GEFLOW_TESTS_UNIT_RUNTIME_ACLSESSION_H

#include "acl/acl_rt.h"

#include <gtest/gtest.h>

/// aclInit and aclrtSetDevice(0) for a test's lifetime; both undone at its
/// end, so each test starts from an uninitialized C API.
struct AclSession {
  AclSession() {
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  ~AclSession() {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  }
};

#endif // GEFLOW_TESTS_UNIT_RUNTIME_ACLSESSION_H
