// The Java API's two ways of calling the 2D median on a stack (issue 50), CPU backend: on the
// stack as one array (FastMedian.median with planes = the stack's), and slice by slice on
// ImageJ's own arrays, as the Fiji command calls it. Median of RUNS timed calls after a warm-up
// call, wall clock; the stack is read and laid out before any timing.
//
//   java -cp ij.jar:fastmedian.jar:CLASSES JavaStackBench STACK.tif RADIUS RUNS
import ij.IJ;
import ij.ImagePlus;
import ij.ImageStack;
import java.util.Arrays;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.MedianOptions;

public final class JavaStackBench {
    public static void main(String[] args) {
        ImagePlus image = IJ.openImage(args[0]);
        int radius = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        ImageStack stack = image.getStack();
        int w = stack.getWidth(), h = stack.getHeight(), d = stack.getSize(), n = w * h;
        short[][] slices = new short[d][];
        short[][] sliceOut = new short[d][n];
        short[] whole = new short[n * d];
        for (int z = 0; z < d; z++) {
            slices[z] = (short[]) stack.getPixels(z + 1);
            System.arraycopy(slices[z], 0, whole, z * n, n);
        }
        short[] wholeOut = new short[whole.length];
        MedianOptions options = MedianOptions.circle(radius).backend(Backend.CPU);
        time("java api, the stack as one array", runs, w, h, d,
                () -> FastMedian.median(whole, wholeOut, w, h, d, options));
        time("java api, slice by slice (as Fiji)", runs, w, h, d, () -> {
            for (int z = 0; z < d; z++) FastMedian.median(slices[z], sliceOut[z], w, h, 1, options);
        });
        for (int z = 0; z < d; z++)
            if (!Arrays.equals(sliceOut[z], Arrays.copyOfRange(wholeOut, z * n, (z + 1) * n)))
                throw new AssertionError("slice " + z + " differs between the two ways");
    }

    private static void time(String what, int runs, int w, int h, int d, Runnable call) {
        call.run();  // warm-up
        double[] ms = new double[runs];
        for (int r = 0; r < runs; r++) {
            long start = System.nanoTime();
            call.run();
            ms[r] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf("%-38s %8.0f ms  (%dx%dx%d u16, median of %d)%n", what, ms[runs / 2], w, h, d, runs);
    }
}
