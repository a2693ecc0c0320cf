/*===- acl.h - AscendCL umbrella header (geflow subset) -------------------===*/
#ifndef GEFLOW_ACL_H
#define GEFLOW_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_rt.h"

#endif /* GEFLOW_ACL_H */
