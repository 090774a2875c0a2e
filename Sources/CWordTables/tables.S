// SPDX-License-Identifier: GPL-3.0-or-later
// The word tables, as made by Tools/wordfreq/make-wordtables.py, included byte for
// byte (the assembler finds them on the target's header search path, `tables`).
// After the tables are made again, touch this file: the build does not track them.
  .section .rodata
  .balign 4
mc_words_en: .incbin "en.words"
mc_words_en_end:
  .balign 4
mc_words_cs: .incbin "cs.words"
mc_words_cs_end:
  .balign 4
mc_words_ru: .incbin "ru.words"
mc_words_ru_end:
  .balign 4
mc_words_uk: .incbin "uk.words"
mc_words_uk_end:

  .section .data.rel.ro,"aw"
  .balign 8
  .global mc_word_table_bounds
mc_word_table_bounds:
  .quad mc_words_en, mc_words_en_end
  .quad mc_words_cs, mc_words_cs_end
  .quad mc_words_ru, mc_words_ru_end
  .quad mc_words_uk, mc_words_uk_end

  .section .note.GNU-stack,"",@progbits
