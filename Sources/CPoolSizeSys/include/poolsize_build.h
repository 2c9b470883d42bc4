// What the build stamped into the binary: scripts/package.sh passes the commit it builds
// (-Xcc -DPOOLSIZE_BUILD_COMMIT=<hash>), so a packaged binary names its commit on a host that
// has no checkout.
#ifndef POOLSIZE_BUILD_H
#define POOLSIZE_BUILD_H

/// The commit this binary was built from, or "" when the build was not stamped.
const char *poolsize_build_commit(void);

#endif
