/* The C library's floor for writing numbers (choreo-bench --numbers): the doubles of a file
 * (native byte order) written with snprintf and a format such as "%.17g", a comma after each,
 * into one growing buffer, as choreo's writer does; best of three, CPU time. Prints one line
 * of JSON: the seconds and the bytes written. Usage: printf-driver FILE FORMAT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s FILE FORMAT\n", argv[0]);
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (!file) {
        perror(argv[1]);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    size_t count = (size_t)size / sizeof(double);
    double *values = malloc(count * sizeof(double));
    if (!values || fread(values, sizeof(double), count, file) != count) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(file);
    char *out = malloc(count * 32);
    size_t written = 0;
    double best = 1e300;
    for (int run = 0; run < 3; run++) {
        memset(out, 0, count * 32);
        double start = cpu_seconds();
        size_t at = 0;
        for (size_t index = 0; index < count; index++) {
            at += (size_t)snprintf(out + at, 32, argv[2], values[index]);
            out[at++] = ',';
        }
        double seconds = cpu_seconds() - start;
        if (seconds < best) best = seconds;
        written = at;
    }
    printf("{\"seconds\": %.6f, \"bytes\": %zu}\n", best, written);
    free(out);
    free(values);
    return 0;
}
