// The program's arguments as the C runtime passed them to main.
//
// On Linux the Swift runtime reads CommandLine.arguments from /proc/self/cmdline,
// and a chroot or a minimal container without /proc leaves it empty: every option
// was then ignored (`migrant-chat --version` started the chat). glibc calls each
// function of .init_array with main's argc, argv and envp, so this one keeps them.

#include <stddef.h>

#include "CArguments.h"

static int savedCount;
static char **savedValues;

__attribute__((constructor)) static void saveArguments(int count, char **values, char **environment) {
  (void)environment;
  savedCount = count;
  savedValues = values;
}

int mc_argument_count(void) { return savedValues ? savedCount : 0; }

const char *mc_argument(int index) {
  return savedValues && index >= 0 && index < savedCount ? savedValues[index] : NULL;
}
