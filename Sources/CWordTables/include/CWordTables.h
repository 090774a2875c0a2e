// SPDX-License-Identifier: GPL-3.0-or-later
#ifndef MIGRANT_CHAT_WORD_TABLES_H
#define MIGRANT_CHAT_WORD_TABLES_H

/// The bytes of one word table, built into the program from tables/<code>.words
/// (made by Tools/wordfreq): `language` is 0 en, 1 cs, 2 ru, 3 uk. Sets `count`
/// and returns the first byte, or returns a null pointer for another number.
const unsigned char *mc_word_table(int language, unsigned long *count);

#endif
