// GNU readline and its history library. stdio.h must come first: readline.h
// uses FILE without including it.
#ifndef MIGRANT_CHAT_CREADLINE_SHIM_H
#define MIGRANT_CHAT_CREADLINE_SHIM_H

#include <stdio.h>
#include <readline/readline.h>
#include <readline/history.h>

#endif
