/* SPDX-FileCopyrightText: 2026 The alarmd developers <alarmd@alarmd.org> */
/* SPDX-License-Identifier: LGPL-2.1-or-later */

#ifndef ALARMD_LIBFUZZER_H
#define ALARMD_LIBFUZZER_H
#include <stddef.h>
#include <stdint.h>

/* libFuzzer's entry point for programs that keep their own main (compiler-rt, LLVM 13 and later).
 * Declared only: it is linked by -sanitize=fuzzer, which `make fuzz-core` passes with -DLIBFUZZER. */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
