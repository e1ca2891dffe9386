// End to end from Java arrays (issue 8): a short[] stack filtered by FastMedian on the GPU and
// written to another short[], wall-clock, the median of `runs` calls after a warm-up call.
// The JNI bridge hands the arrays to the plane pipeline as they are (JNI critical sections).
//
//   java -Xmx8g -cp CLASSES JavaPipelineBench [WIDTHxHEIGHTxPLANES] [RUNS]
//
// Stack: u16 random walk, as bench/gpu/bench_pipeline.cpp (the same bytes cost the same).
import java.util.Arrays;
import java.util.Random;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.MedianOptions;

public final class JavaPipelineBench {
    public static void main(String[] args) {
        int[] size = {2048, 2048, 200};
        if (args.length > 0) size = Arrays.stream(args[0].split("x")).mapToInt(Integer::parseInt).toArray();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int w = size[0], h = size[1], d = size[2];
        short[] src = new short[w * h * d];
        short[] dst = new short[src.length];
        Random rng = new Random(1);
        int v = 30000;
        for (int i = 0; i < src.length; ++i) {
            v = (v + rng.nextInt(201) - 100) & 0xFFFF;
            src[i] = (short) v;
        }
        System.out.printf("java %s; u16 stack %dx%dx%d; %d runs%n",
                System.getProperty("java.version"), w, h, d, runs);
        for (int k : new int[] {3, 7}) {
            MedianOptions o = MedianOptions.square(k).backend(Backend.CUDA);
            FastMedian.median(src, dst, w, h, d, o);  // warm-up
            double[] ms = new double[runs];
            for (int r = 0; r < runs; ++r) {
                long start = System.nanoTime();
                FastMedian.median(src, dst, w, h, d, o);
                ms[r] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(ms);
            double median = ms[runs / 2];
            System.out.printf("java median %dx%d  %7.2f Gpix/s (%.1f ms)%n", k, k,
                    (double) w * h * d / median / 1e6, median);
        }
    }
}
