/* The POSIX threads calls BLIS makes, for a program with one thread (the runner's). BLIS is
 * built without multithreading, yet its wrappers still name these; linked into each numpy
 * module that uses BLIS, hidden (-fvisibility=hidden), so they neither clash with nor depend
 * on what the runner's libc has. A thread is never started: creating one fails. */
#include <errno.h>
#include <pthread.h>

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg) {
    (void)t, (void)a, (void)f, (void)arg;
    return EAGAIN;
}
int pthread_join(pthread_t t, void **r) { (void)t, (void)r; return ESRCH; }
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m, (void)a; return 0; }
int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_mutex_trylock(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) { (void)c, (void)a; return 0; }
int pthread_cond_destroy(pthread_cond_t *c) { (void)c; return 0; }
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) { (void)c, (void)m; return 0; }
int pthread_cond_broadcast(pthread_cond_t *c) { (void)c; return 0; }
int pthread_once(pthread_once_t *o, void (*f)(void)) {
    if (!*o) {
        *o = 1;
        f();
    }
    return 0;
}
int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned n) {
    (void)b, (void)a, (void)n;
    return 0;
}
int pthread_barrier_destroy(pthread_barrier_t *b) { (void)b; return 0; }
int pthread_barrier_wait(pthread_barrier_t *b) { (void)b; return PTHREAD_BARRIER_SERIAL_THREAD; }
