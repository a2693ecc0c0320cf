/*===- acl.h - AscendCL umbrella header -----------------------------------===*
 *
 * As CANN's: base types, the runtime (aclrt*) and the model API (aclmdl*).
 * It lives with the model API because that layer sees the other two.
 *
 *===----------------------------------------------------------------------===*/
#ifndef GEFLOW_ACL_H
#define GEFLOW_ACL_H

#include "acl/acl_base.h"
#include "acl/acl_mdl.h"
#include "acl/acl_rt.h"

#endif /* GEFLOW_ACL_H */
