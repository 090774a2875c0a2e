// SPDX-License-Identifier: GPL-3.0-or-later
#include "CWordTables.h"

// Start and end of each table, in tables.S.
extern const unsigned char *const mc_word_table_bounds[8];

const unsigned char *mc_word_table(int language, unsigned long *count) {
  if (language < 0 || language > 3) return 0;
  const unsigned char *start = mc_word_table_bounds[language * 2];
  const unsigned char *end = mc_word_table_bounds[language * 2 + 1];
  *count = (unsigned long)(end - start);
  return start;
}
