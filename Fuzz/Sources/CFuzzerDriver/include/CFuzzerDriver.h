#ifndef C_FUZZER_DRIVER_H
#define C_FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point for programs that have their own main (compiler-rt FuzzerInterface.h).
// It is linked in by -sanitize=fuzzer; the fuzz targets cannot link without that flag.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
