/* The kernel as the build compiles it: the fallbacks of the compiler builtins (portable.h), then
 * kernel.c unchanged, whose SHA-256 the results record. */
#include "portable.h"
#include "kernel.c"
