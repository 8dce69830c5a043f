// Built only in ThreadSanitizer builds, and preloaded by the tsan test preset
// (LD_PRELOAD). Debian's librdkafka uses C11 threads (<threads.h>): thrd_create, mtx_*,
// cnd_*, call_once. The TSan runtimes of GCC 12 and clang 14 (Debian 12) intercept none
// of them: librdkafka's threads then run without TSan's per-thread state and crash in its
// allocator on their first malloc, and every hand-over guarded by a C11 mutex (a message
// passed from a broker thread to the consumer's queue) looks like a data race. These
// definitions take precedence over glibc's and route the C11 calls to their POSIX
// equivalents, which TSan intercepts; glibc implements them the same way (an mtx_t and a
// cnd_t are a pthread_mutex_t and a pthread_cond_t). Not instrumented itself, and harmless
// in the child processes tests start.

#include <pthread.h>
#include <threads.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace {

struct Start {
    thrd_start_t function;
    void* argument;
};

pthread_mutex_t* posix(mtx_t* mutex) {
    return reinterpret_cast<pthread_mutex_t*>(mutex);
}
pthread_cond_t* posix(cnd_t* condition) {
    return reinterpret_cast<pthread_cond_t*>(condition);
}
static_assert(sizeof(mtx_t) >= sizeof(pthread_mutex_t) && sizeof(cnd_t) >= sizeof(pthread_cond_t));

int c11Result(int posixResult) {
    if (posixResult == 0)
        return thrd_success;
    return posixResult == ETIMEDOUT ? thrd_timedout : posixResult == EBUSY ? thrd_busy : thrd_error;
}

void* runC11Thread(void* raw) {
    Start start = *static_cast<Start*>(raw);
    std::free(raw);
    return reinterpret_cast<void*>(static_cast<intptr_t>(start.function(start.argument)));
}

} // namespace

extern "C" {

int thrd_create(thrd_t* thread, thrd_start_t function, void* argument) {
    auto* start = static_cast<Start*>(std::malloc(sizeof(Start)));
    if (!start)
        return thrd_nomem;
    *start = {function, argument};
    if (pthread_create(thread, nullptr, &runC11Thread, start) != 0) {
        std::free(start);
        return thrd_error;
    }
    return thrd_success;
}

int thrd_join(thrd_t thread, int* result) {
    void* returned = nullptr;
    if (pthread_join(thread, &returned) != 0)
        return thrd_error;
    if (result)
        *result = static_cast<int>(reinterpret_cast<intptr_t>(returned));
    return thrd_success;
}

int thrd_detach(thrd_t thread) {
    return pthread_detach(thread) == 0 ? thrd_success : thrd_error;
}

int mtx_init(mtx_t* mutex, int type) {
    pthread_mutexattr_t attributes;
    pthread_mutexattr_init(&attributes);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&attributes, PTHREAD_MUTEX_RECURSIVE);
    const int result = pthread_mutex_init(posix(mutex), &attributes);
    pthread_mutexattr_destroy(&attributes);
    return c11Result(result);
}
int mtx_lock(mtx_t* mutex) {
    return c11Result(pthread_mutex_lock(posix(mutex)));
}
int mtx_trylock(mtx_t* mutex) {
    return c11Result(pthread_mutex_trylock(posix(mutex)));
}
int mtx_timedlock(mtx_t* mutex, const struct timespec* until) {
    return c11Result(pthread_mutex_timedlock(posix(mutex), until));
}
int mtx_unlock(mtx_t* mutex) {
    return c11Result(pthread_mutex_unlock(posix(mutex)));
}
void mtx_destroy(mtx_t* mutex) {
    pthread_mutex_destroy(posix(mutex));
}

int cnd_init(cnd_t* condition) {
    return c11Result(pthread_cond_init(posix(condition), nullptr));
}
int cnd_signal(cnd_t* condition) {
    return c11Result(pthread_cond_signal(posix(condition)));
}
int cnd_broadcast(cnd_t* condition) {
    return c11Result(pthread_cond_broadcast(posix(condition)));
}
int cnd_wait(cnd_t* condition, mtx_t* mutex) {
    return c11Result(pthread_cond_wait(posix(condition), posix(mutex)));
}
int cnd_timedwait(cnd_t* condition, mtx_t* mutex, const struct timespec* until) {
    return c11Result(pthread_cond_timedwait(posix(condition), posix(mutex), until));
}
void cnd_destroy(cnd_t* condition) {
    pthread_cond_destroy(posix(condition));
}

void call_once(once_flag* flag, void (*function)(void)) {
    static_assert(sizeof(once_flag) >= sizeof(pthread_once_t));
    pthread_once(reinterpret_cast<pthread_once_t*>(flag), function);
}

} // extern "C"
