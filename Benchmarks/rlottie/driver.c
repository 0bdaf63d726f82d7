/*
 * The peer measurement for choreo-bench --rlottie: rlottie (Debian's librlottie-dev) computing
 * the render tree of a Lottie file at every frame, the work it shares with choreo's engine
 * (every layer's animated transform and opacity at a frame).
 *
 *   driver FILE.json PASSES OUT.json DIGITS
 *
 * prints one JSON object: the frames, the best pass's wall time of render_tree over every frame
 * (the engine figure), the CPU time of loading the file, and the CPU time of the pipeline, in
 * seconds: loading the file, building every frame's tree and writing each frame's layers as
 * JSON to OUT.json with DIGITS significant digits (printf's %.*g): the numbers choreo writes
 * for `--properties position,opacity,transform.scale`, each layer's position (the centre of
 * its transformed 20 x 20 rectangle's bounds), opacity and scale (the bounds' width over 20).
 */
#include <rlottie_capi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static unsigned long walk(const LOTLayerNode *node) {
    unsigned long sum = node->mAlpha + (unsigned long)node->mNodeList.size;
    for (size_t i = 0; i < node->mLayerList.size; i++) sum += walk(node->mLayerList.ptr[i]);
    return sum;
}

/* One frame as a JSON line: {"frame": N, "layers": [{"position": [x, y], "opacity": A,
   "scale": S}, ...]}, each number with `digits` significant digits. */
static void write_layer(FILE *out, const LOTLayerNode *node, int *first, int digits) {
    for (size_t i = 0; i < node->mNodeList.size; i++) {
        const LOTNode *shape = node->mNodeList.ptr[i];
        if (shape->mPath.ptCount == 0) continue;
        double minX = shape->mPath.ptPtr[0], maxX = minX, minY = shape->mPath.ptPtr[1], maxY = minY;
        /* ptCount counts the floats, two per point. */
        for (size_t p = 1; p < shape->mPath.ptCount / 2; p++) {
            double x = shape->mPath.ptPtr[2 * p], y = shape->mPath.ptPtr[2 * p + 1];
            if (x < minX) minX = x;
            if (x > maxX) maxX = x;
            if (y < minY) minY = y;
            if (y > maxY) maxY = y;
        }
        fprintf(out, "%s{\"position\":[%.*g,%.*g],\"opacity\":%.*g,\"scale\":%.*g}", *first ? "" : ",", digits,
                (minX + maxX) / 2, digits, (minY + maxY) / 2, digits, node->mAlpha / 255.0, digits,
                (maxX - minX) / 20);
        *first = 0;
    }
    for (size_t i = 0; i < node->mLayerList.size; i++) write_layer(out, node->mLayerList.ptr[i], first, digits);
}

static char *slurp(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc((size_t)size + 1);
    if (data && fread(data, 1, (size_t)size, file) != (size_t)size) {
        free(data);
        data = NULL;
    }
    if (data) data[size] = 0;
    fclose(file);
    return data;
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s FILE.json PASSES OUT.json DIGITS\n", argv[0]);
        return 2;
    }
    int passes = atoi(argv[2]);
    int digits = atoi(argv[4]);
    double cpuStart = now(CLOCK_PROCESS_CPUTIME_ID);
    char *data = slurp(argv[1]);
    if (!data) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    Lottie_Animation *animation = lottie_animation_from_data(data, argv[1], "");
    if (!animation) {
        fprintf(stderr, "rlottie cannot load %s\n", argv[1]);
        return 1;
    }
    size_t frames = lottie_animation_get_totalframe(animation);
    double load = now(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
    unsigned long checksum = 0;
    FILE *out = fopen(argv[3], "wb");
    if (!out) {
        fprintf(stderr, "cannot write %s\n", argv[3]);
        return 1;
    }
    for (size_t frame = 0; frame < frames; frame++) {
        const LOTLayerNode *tree = lottie_animation_render_tree(animation, frame, 400, 400);
        int first = 1;
        fprintf(out, "{\"frame\":%zu,\"layers\":[", frame);
        write_layer(out, tree, &first, digits);
        fputs("]}\n", out);
        checksum += walk(tree);
    }
    fclose(out);
    double pipeline = now(CLOCK_PROCESS_CPUTIME_ID) - cpuStart;
    double best = 1e300;
    for (int pass = 0; pass < passes; pass++) {
        double start = now(CLOCK_MONOTONIC);
        for (size_t frame = 0; frame < frames; frame++)
            checksum += walk(lottie_animation_render_tree(animation, frame, 400, 400));
        double elapsed = now(CLOCK_MONOTONIC) - start;
        if (elapsed < best) best = elapsed;
    }
    printf("{\"frames\": %zu, \"render_tree_seconds\": %.6f, \"load_cpu_seconds\": %.6f, "
           "\"pipeline_cpu_seconds\": %.6f, \"checksum\": %lu}\n",
           frames, best, load, pipeline, checksum);
    lottie_animation_destroy(animation);
    free(data);
    return 0;
}
