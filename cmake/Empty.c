/* A shared library target needs one source of its own; every real object of
 * libgeflow_acl.so and libgeflow_compiler.so comes from the static libraries
 * cmake/GeflowInstall.cmake folds in. */
typedef int geflow_empty_translation_unit;
