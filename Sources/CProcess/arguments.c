// The program's arguments as the C runtime passed them to main.
//
// On Linux the Swift runtime finds CommandLine.arguments on the initial stack, which
// it locates through /proc/self/maps; a chroot or a minimal container without /proc
// leaves them empty, and every option was ignored (`migrant-chat --version` started
// the chat). glibc calls each function of .init_array with main's argc, argv and
// envp, so this one keeps them.

#define _GNU_SOURCE 1  // gettid
#include <stddef.h>
#include <unistd.h>

#include "CProcess.h"

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

int mc_thread_id(void) { return (int)gettid(); }
