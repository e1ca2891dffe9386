// ImageJ's RankFilters median on the same images as fastmedian_bench_cpu: the raw planes of
// bench/gpu/images, mirror-tiled to size x size, radius r = (k-1)/2 for k = 3, 5, 7, 11, 21
// (ImageJ's circle; ours is measured on the same circle). Median of `runs` timed calls after
// one warm-up, each on a fresh copy of the image (RankFilters filters in place).
//
//   javac -cp /usr/share/java/ij.jar -d OUT ImageJMedianBench.java
//   java -cp /usr/share/java/ij.jar:OUT ImageJMedianBench IMAGES SIZE RUNS OUT.tsv
import ij.Prefs;
import ij.plugin.filter.RankFilters;
import ij.process.ByteProcessor;
import ij.process.FloatProcessor;
import ij.process.ImageProcessor;
import ij.process.ShortProcessor;
import java.io.File;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Arrays;

public class ImageJMedianBench {
    public static void main(String[] args) throws IOException {
        File images = new File(args[0]);
        int size = Integer.parseInt(args[1]);
        int runs = Integer.parseInt(args[2]);
        int threads = Prefs.getThreads();
        System.out.printf("ImageJ %s RankFilters, %dx%d, median of %d runs, %d threads%n",
                ij.IJ.getVersion(), size, size, runs, threads);
        try (PrintWriter out = new PrintWriter(new FileWriter(args[3]))) {
            for (String type : new String[] {"u8", "u16", "f32"}) {
                ImageProcessor image = tiled(images, type, size);
                for (int k : new int[] {3, 5, 7, 11, 21}) {
                    int radius = (k - 1) / 2;
                    double mpix = (double) size * size / 1e6 / medianSeconds(image, radius, runs);
                    System.out.printf("imagej   %-4s circle%-4d %10.1f Mpix/s  (%d threads)%n",
                            type, radius, mpix, threads);
                    out.printf("imagej\t%s\tcircle%d\t%f\t%d%n", type, radius, mpix, threads);
                    out.flush();
                }
            }
        }
        System.exit(0);  // RankFilters leaves worker threads that would keep the JVM alive
    }

    static double medianSeconds(ImageProcessor image, int radius, int runs) {
        RankFilters filters = new RankFilters();
        double[] t = new double[runs];
        for (int i = -1; i < runs; i++) {
            ImageProcessor copy = image.duplicate();
            long start = System.nanoTime();
            filters.rank(copy, radius, RankFilters.MEDIAN);
            if (i >= 0) t[i] = (System.nanoTime() - start) / 1e9;
        }
        Arrays.sort(t);
        return t[runs / 2];
    }

    // The one <type>_<W>x<H>.raw in `dir` (little-endian rows), mirror-tiled like raw_image.cpp.
    static ImageProcessor tiled(File dir, String type, int size) throws IOException {
        for (File f : dir.listFiles()) {
            String name = f.getName();
            if (!name.startsWith(type + "_") || !name.endsWith(".raw")) continue;
            String[] wh = name.substring(type.length() + 1, name.length() - 4).split("x");
            int w = Integer.parseInt(wh[0]), h = Integer.parseInt(wh[1]);
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f.toPath())).order(ByteOrder.LITTLE_ENDIAN);
            ImageProcessor ip = type.equals("u8") ? new ByteProcessor(size, size)
                    : type.equals("u16") ? new ShortProcessor(size, size) : new FloatProcessor(size, size);
            for (int y = 0; y < size; y++)
                for (int x = 0; x < size; x++) {
                    int i = fold(y, h) * w + fold(x, w);
                    if (type.equals("u8")) ip.set(x, y, b.get(i) & 0xFF);
                    else if (type.equals("u16")) ip.set(x, y, b.getShort(2 * i) & 0xFFFF);
                    else ip.setf(x, y, b.getFloat(4 * i));
                }
            return ip;
        }
        throw new IOException("no " + type + "_WxH.raw in " + dir);
    }

    static int fold(int i, int n) {
        int m = i % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
}
