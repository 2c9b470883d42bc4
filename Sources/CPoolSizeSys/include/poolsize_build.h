// What the build stamped into the binary: scripts/package.sh links in the commit it builds (a
// definition of poolsize_build_commit_text), so a packaged binary names its commit on a host that
// has no checkout.
#ifndef POOLSIZE_BUILD_H
#define POOLSIZE_BUILD_H

/// The commit this binary was built from, or "" when the build was not stamped.
const char *poolsize_build_commit(void);

#endif
