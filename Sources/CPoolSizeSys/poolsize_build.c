#include "poolsize_build.h"

// Stringified here rather than passed with quotes, so the flag needs no shell quoting.
#define POOLSIZE_TEXT_(value) #value
#define POOLSIZE_TEXT(value) POOLSIZE_TEXT_(value)

const char *poolsize_build_commit(void) {
#ifdef POOLSIZE_BUILD_COMMIT
    return POOLSIZE_TEXT(POOLSIZE_BUILD_COMMIT);
#else
    return "";
#endif
}
