// ImageJ's RankFilters median on the inputs fastmedian_bench_cpu wrote with --dump: every kind of
// data (<kind>_<type>_<W>x<H>.raw, little-endian rows; bench/common/data_kinds.hpp), radius
// r = (k-1)/2 for k = 3, 5, 7, 11, 21 (ImageJ's circle; ours is measured on the same circle;
// larger radii take ImageJ minutes a call). Median of `runs` timed calls after one warm-up, each
// on a fresh copy of the image (RankFilters filters in place).
//
//   javac -cp /usr/share/java/ij.jar -d OUT ImageJMedianBench.java
//   java -cp /usr/share/java/ij.jar:OUT ImageJMedianBench DUMP_DIR RUNS OUT.tsv
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
        File inputs = new File(args[0]);
        int runs = Integer.parseInt(args[1]);
        int threads = Prefs.getThreads();
        System.out.printf("ImageJ %s RankFilters, median of %d runs, %d threads%n",
                ij.IJ.getVersion(), runs, threads);
        try (PrintWriter out = new PrintWriter(new FileWriter(args[2]))) {
            for (String type : new String[] {"u8", "u16", "f32"}) {
                for (String kind : new String[] {"images", "flat", "noise"}) {
                    ImageProcessor image = read(inputs, kind, type);
                    if (image == null) continue;
                    for (int k : new int[] {3, 5, 7, 11, 21}) {
                        int radius = (k - 1) / 2;
                        double mpix = (double) image.getWidth() * image.getHeight() / 1e6
                                / medianSeconds(image, radius, runs);
                        System.out.printf("imagej   %-4s %-7s circle%-4d %10.1f Mpix/s  (%d threads)%n",
                                type, kind, radius, mpix, threads);
                        out.printf("imagej\t%s\t%s\tcircle%d\t%f\t%d%n", type, kind, radius, mpix, threads);
                        out.flush();
                    }
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

    // The dumped <kind>_<type>_<W>x<H>.raw in `dir`, or null where the kind was not dumped for
    // the type (flat is f32 only).
    static ImageProcessor read(File dir, String kind, String type) throws IOException {
        String prefix = kind + "_" + type + "_";
        for (File f : dir.listFiles()) {
            String name = f.getName();
            if (!name.startsWith(prefix) || !name.endsWith(".raw")) continue;
            String[] wh = name.substring(prefix.length(), name.length() - 4).split("x");
            int w = Integer.parseInt(wh[0]), h = Integer.parseInt(wh[1]);
            ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(f.toPath())).order(ByteOrder.LITTLE_ENDIAN);
            ImageProcessor ip = type.equals("u8") ? new ByteProcessor(w, h)
                    : type.equals("u16") ? new ShortProcessor(w, h) : new FloatProcessor(w, h);
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++) {
                    int i = y * w + x;
                    if (type.equals("u8")) ip.set(x, y, b.get(i) & 0xFF);
                    else if (type.equals("u16")) ip.set(x, y, b.getShort(2 * i) & 0xFFFF);
                    else ip.setf(x, y, b.getFloat(4 * i));
                }
            return ip;
        }
        return null;
    }
}
