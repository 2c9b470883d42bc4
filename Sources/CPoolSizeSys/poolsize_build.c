#include "poolsize_build.h"

// Empty and weak in every build: scripts/package.sh links a strong definition of this symbol
// (an object it compiles with the commit in it), which the linker takes in place of this one, so
// stamping a binary relinks it and recompiles no module.
__attribute__((weak)) const char poolsize_build_commit_text[] = "";

const char *poolsize_build_commit(void) { return poolsize_build_commit_text; }
