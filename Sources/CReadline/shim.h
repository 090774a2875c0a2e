// GNU readline and its history library. stdio.h must come first: readline.h
// uses FILE without including it.
#ifndef MIGRANT_CHAT_CREADLINE_SHIM_H
#define MIGRANT_CHAT_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

/// The version of the readline this process runs with (a static string).
static inline const char *mc_rl_version(void) {
  return rl_library_version ? rl_library_version : "?";
}

/// One-time set-up. String literals have static storage, as readline needs.
static inline void mc_rl_configure(rl_completion_func_t *completer) {
  rl_readline_name = "migrant-chat";
  rl_catch_signals = 0;
  // SIGWINCH goes through the client's one signal handler, which calls
  // rl_resize_terminal on the reading thread; readline must not install its own.
  rl_catch_sigwinch = 0;
  rl_change_environment = 0;
  // Complete the whole line, so button titles with spaces complete as one.
  rl_completer_word_break_characters = (char *)"";
  rl_attempted_completion_function = completer;
}

/// Makes readline pass 8-bit input through. Needed when the client switched
/// LC_CTYPE to C.UTF-8 itself: readline judges 8-bit support from the LANG/LC_*
/// environment variables, which still say "C", and would turn UTF-8 bytes into
/// Meta keys.
static inline void mc_rl_allow_eight_bit(void) {
  rl_initialize();
  rl_variable_bind("input-meta", "on");
  rl_variable_bind("output-meta", "on");
  rl_variable_bind("convert-meta", "off");
}

/// Called from the completion function: no file names, no trailing space.
static inline void mc_rl_completion_options(void) {
  rl_attempted_completion_over = 1;
  rl_completion_suppress_append = 1;
}

/// How many characters the line being edited has.
static inline int mc_rl_line_length(void) { return rl_end; }

/// The newest history entry (owned by readline), or NULL.
static inline const char *mc_history_last_line(void) {
  if (history_length <= 0) return NULL;
  HIST_ENTRY *entry = history_get(history_base + history_length - 1);
  return entry ? entry->line : NULL;
}

#endif
