#ifndef MIGRANT_CHAT_PROCESS_H
#define MIGRANT_CHAT_PROCESS_H

/// How many arguments main was given (the program's name included); 0 if unknown.
int mc_argument_count(void);

/// Argument `index` as main was given it (not to be freed), or NULL past the end.
const char *mc_argument(int index);

/// The calling thread's id (gettid), which Swift's Glibc module does not offer.
int mc_thread_id(void);

/// The environment (`environ`), which may be NULL after clearenv(): Swift's Glibc
/// module gives `environ` as never NULL.
char *const *mc_environment(void);

#endif
