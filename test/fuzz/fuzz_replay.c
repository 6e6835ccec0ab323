/* fuzz_replay - drives a fuzz target without libFuzzer, so the unit suite
   checks the fuzz properties with any compiler, under valgrind and under
   the sanitizers: it runs every file named on the command line (or found
   in a named directory), then, with --mutations N, N deterministic
   mutations of each. A crash file that libFuzzer found becomes a
   regression test by being copied into the corpus directory.
   Usage: fuzz_x_replay [--mutations N] FILE_OR_DIR...
   With FUZZ_REPLAY_LAST=path, each input is saved there before it runs,
   so after a failure that file reproduces it. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REPLAY_MAX 4096

static uint64_t replay_rng = 0x2545f4914f6cdd1dull;

static unsigned replay_rand(unsigned n)
{
    uint64_t x = replay_rng;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    replay_rng = x;
    return (unsigned)(x % n);
}

/* One to four byte-level edits, the kinds libFuzzer makes most often. */
static size_t replay_mutate(uint8_t *buf, size_t n)
{
    static const uint8_t special[] = { 0, 1, 0x7f, 0x80, 0xff, '0', '9', 'a', 'A', 'z' };
    int edits = 1 + (int)replay_rand(4), e;
    for (e = 0; e < edits; ++e) {
        unsigned kind = replay_rand(5), at = n ? replay_rand((unsigned)n) : 0;
        if (kind == 0 && n) buf[at] ^= (uint8_t)(1u << replay_rand(8));
        else if (kind == 1 && n) buf[at] = special[replay_rand(sizeof special)];
        else if (kind == 2 && n < REPLAY_MAX) {
            memmove(buf + at + 1, buf + at, n - at);
            buf[at] = (uint8_t)replay_rand(256);
            ++n;
        } else if (kind == 3 && n) {
            memmove(buf + at, buf + at + 1, n - at - 1);
            --n;
        } else if (n) buf[at] = (uint8_t)replay_rand(256);
    }
    return n;
}

static long replay_runs = 0;
static const char *replay_last = NULL;   /* $FUZZ_REPLAY_LAST */

/* Runs one input; with FUZZ_REPLAY_LAST set, first saves it there, so a
   failing mutation can be replayed (and committed) as a file. */
static void replay_one(const uint8_t *data, size_t n)
{
    if (replay_last) {
        FILE *f = fopen(replay_last, "wb");
        if (f) { fwrite(data, 1, n, f); fclose(f); }
    }
    LLVMFuzzerTestOneInput(data, n);
    ++replay_runs;
}

static int replay_file(const char *path, long mutations)
{
    static uint8_t orig[REPLAY_MAX], buf[REPLAY_MAX];
    FILE *f = fopen(path, "rb");
    size_t n;
    long m;
    if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
    n = fread(orig, 1, sizeof orig, f);
    fclose(f);
    /* seeded by the content, so the mutations do not depend on the order
       the directory lists its files in */
    replay_rng = 0x2545f4914f6cdd1dull;
    for (m = 0; m < (long)n; ++m) replay_rng = (replay_rng ^ orig[m]) * 0x100000001b3ull;
    if (!replay_rng) replay_rng = 1;
    replay_one(orig, n);
    for (m = 0; m < mutations; ++m) {
        size_t k;
        memcpy(buf, orig, n);
        k = replay_mutate(buf, n);
        replay_one(buf, k);
    }
    return 0;
}

static int replay_path(const char *path, long mutations)
{
    struct stat sb;
    DIR *dir;
    struct dirent *e;
    int bad = 0;
    if (stat(path, &sb) != 0) { fprintf(stderr, "replay: no such path %s\n", path); return 1; }
    if (!S_ISDIR(sb.st_mode)) return replay_file(path, mutations);
    dir = opendir(path);
    if (!dir) { fprintf(stderr, "replay: cannot read %s\n", path); return 1; }
    while ((e = readdir(dir)) != NULL) {
        char full[4096];
        if (e->d_name[0] == '.') continue;
        snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        bad |= replay_path(full, mutations);
    }
    closedir(dir);
    return bad;
}

int main(int argc, char **argv)
{
    long mutations = 0;
    int i, bad = 0;
    replay_last = getenv("FUZZ_REPLAY_LAST");
    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc) {
            mutations = atol(argv[++i]);
            continue;
        }
        bad |= replay_path(argv[i], mutations);
    }
    printf("replay: %ld inputs run\n", replay_runs);
    if (replay_runs == 0) { fprintf(stderr, "replay: no inputs\n"); return 1; }
    return bad;
}
