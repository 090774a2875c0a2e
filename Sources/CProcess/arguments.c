// The program's arguments as the C runtime passed them to main.
//
// On Linux the Swift runtime finds CommandLine.arguments on the initial stack, which
// it locates through /proc/self/maps; a chroot or a minimal container without /proc
// leaves them empty, and every option was ignored (`migrant-chat --version` started
// the chat). glibc calls each function of .init_array with main's argc, argv and
// envp, so this one keeps them.

#define _GNU_SOURCE 1  // gettid
#include <fcntl.h>
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

// Started with stdin, stdout or stderr closed (`<&-`, some CI runners and service
// managers), the first file opened would take that number: libdispatch's eventfd, then
// the SQLite cache, read as typed lines or written with answers. Each one closed is
// /dev/null instead (open takes the lowest free number), before any other constructor
// (priority 101) and so before the Swift runtime and libdispatch open anything.
__attribute__((constructor(101))) static void openClosedStandardDescriptors(void) {
  for (int descriptor = 0; descriptor <= 2; descriptor++) {
    if (fcntl(descriptor, F_GETFD) == -1) (void)open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY);
  }
}

int mc_argument_count(void) { return savedValues ? savedCount : 0; }

const char *mc_argument(int index) {
  return savedValues && index >= 0 && index < savedCount ? savedValues[index] : NULL;
}

int mc_thread_id(void) { return (int)gettid(); }

extern char **environ;

char *const *mc_environment(void) { return environ; }
