// What the build knows about itself. `make release`, `make install` and
// `make dist` pass the git commit: -Xcc -DMIGRANT_CHAT_COMMIT='"abc1234"'.
// A plain `swift build` says "unknown".
#ifndef MIGRANT_CHAT_CBUILDINFO_SHIM_H
#define MIGRANT_CHAT_CBUILDINFO_SHIM_H

#ifndef MIGRANT_CHAT_COMMIT
#define MIGRANT_CHAT_COMMIT "unknown"
#endif

static inline const char *mc_build_commit(void) { return MIGRANT_CHAT_COMMIT; }

#endif
