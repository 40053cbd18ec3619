#include "CSignalCleanup.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static char paths[VCF_CLEANUP_SLOTS][VCF_CLEANUP_PATH_MAX];
static volatile sig_atomic_t used[VCF_CLEANUP_SLOTS];
static volatile sig_atomic_t installed;

static const int signals[] = {SIGINT, SIGTERM, SIGHUP};

static void handle(int signal_number) {
    for (int slot = 0; slot < VCF_CLEANUP_SLOTS; slot++) {
        if (used[slot]) unlink(paths[slot]);
    }
    // The default action then ends the process, so its exit status names the signal as it would have.
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    sigaction(signal_number, &action, NULL);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, signal_number);
    sigprocmask(SIG_UNBLOCK, &unblock, NULL);
    raise(signal_number);
}

void vcf_cleanup_install(void) {
    if (installed) return;
    installed = 1;
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction current;
        if (sigaction(signals[i], NULL, &current) != 0) continue;
        if (current.sa_handler == SIG_IGN) continue;
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = handle;
        sigemptyset(&action.sa_mask);
        // Every cleanup signal is held off while one is handled, so the table is walked once.
        for (unsigned j = 0; j < sizeof signals / sizeof signals[0]; j++) sigaddset(&action.sa_mask, signals[j]);
        sigaction(signals[i], &action, NULL);
    }
}

int vcf_cleanup_register(const char *path) {
    size_t length = strlen(path);
    if (length >= VCF_CLEANUP_PATH_MAX) return -1;
    for (int slot = 0; slot < VCF_CLEANUP_SLOTS; slot++) {
        if (used[slot]) continue;
        memcpy(paths[slot], path, length + 1);
        // The path is complete before the slot is marked used, so the handler never reads half of it.
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        used[slot] = 1;
        return slot;
    }
    return -1;
}

void vcf_cleanup_unregister(int slot) {
    if (slot < 0 || slot >= VCF_CLEANUP_SLOTS) return;
    used[slot] = 0;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
}
