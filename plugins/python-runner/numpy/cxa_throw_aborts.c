/* C++ exceptions cannot unwind in this WebAssembly build: a throw ends the program with a message. */
#include <stdio.h>
#include <stdlib.h>
__attribute__((visibility("hidden"))) void *__cxa_allocate_exception(size_t size) { return malloc(size); }
__attribute__((visibility("hidden"), noreturn)) void __cxa_throw(void *exception, void *type, void (*destructor)(void *)) {
    (void)exception; (void)type; (void)destructor;
    fputs("fatal: a native extension threw a C++ exception, which cannot be caught in this sandbox\n", stderr);
    abort();
}
