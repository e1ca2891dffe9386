package org.fastmedian.fiji;

import ij.IJ;
import ij.ImagePlus;
import ij.Macro;
import ij.gui.GenericDialog;
import ij.plugin.filter.ExtendedPlugInFilter;
import ij.plugin.filter.PlugInFilterRunner;
import ij.process.ImageProcessor;
import java.awt.Rectangle;
import java.util.Locale;
import org.fastmedian.Backend;
import org.fastmedian.FastMedian;
import org.fastmedian.FastMedianException;
import org.fastmedian.MedianOptions;
import org.fastmedian.RunInfo;

/**
 * Plugins &gt; fastmedian &gt; Median (fastmedian)...: ImageJ's Process &gt; Filters &gt; Median
 * (the same circular mask, the same edge handling, the same macro keys {@code radius=R [stack]})
 * computed by fastmedian, on the first CUDA device when there is one, else on the CPU. For 8, 16
 * and 32-bit images and stacks; a selection limits the output as in ImageJ. Logs one line per
 * run: backend, device and time.
 */
public class MedianCommand implements ExtendedPlugInFilter {
    private static final String TITLE = "Median (fastmedian)";
    private static double lastRadius = 2;  // the dialog's default, kept between interactive runs

    // No DOES_RGB: ImageJ then refuses RGB images itself, naming the types that work.
    private final int flags = DOES_8G | DOES_16 | DOES_32 | SUPPORTS_MASKING | FINAL_PROCESSING;
    private double radius;
    private RunInfo lastRun;
    private int slices;
    private long nanos;
    private boolean failed;

    @Override
    public int setup(String arg, ImagePlus imp) {
        if (arg.equals("final")) {  // called once after the last slice (FINAL_PROCESSING)
            if (!failed && lastRun != null) log();
            return DONE;
        }
        return flags;
    }

    @Override
    public int showDialog(ImagePlus imp, String command, PlugInFilterRunner pfr) {
        GenericDialog gd = new GenericDialog(command);
        gd.addNumericField("Radius", lastRadius, 1, 6, "pixels");
        gd.showDialog();
        if (gd.wasCanceled()) return DONE;
        radius = gd.getNextNumber();
        if (gd.invalidNumber()) {
            IJ.error(TITLE, "Radius is not a number.");
            return DONE;
        }
        // The range is checked by the library, whose message states it.
        if (Macro.getOptions() == null) lastRadius = radius;
        return IJ.setupDialog(imp, flags);  // adds DOES_STACKS for "stack" in a macro, or asks
    }

    @Override
    public void setNPasses(int nPasses) {}  // ImageJ's runner shows the progress through a stack

    /**
     * Filters one slice into a new array and copies the selected rectangle back, so that a failure
     * writes nothing. Bad arguments and a missing library fail on the first slice, so the image is
     * then unchanged; later slices are skipped after an error, which is reported once.
     */
    @Override
    public void run(ImageProcessor ip) {
        if (failed) return;
        int width = ip.getWidth(), height = ip.getHeight();
        Object pixels = ip.getPixels();
        // Border replicate (the default) is ImageJ's edge handling.
        MedianOptions options = MedianOptions.circle(radius);
        long start = System.nanoTime();
        Object filtered;
        try {
            if (pixels instanceof byte[]) {
                byte[] out = new byte[width * height];
                lastRun = FastMedian.median((byte[]) pixels, out, width, height, 1, options);
                filtered = out;
            } else if (pixels instanceof short[]) {
                short[] out = new short[width * height];
                lastRun = FastMedian.median((short[]) pixels, out, width, height, 1, options);
                filtered = out;
            } else {
                float[] out = new float[width * height];
                lastRun = FastMedian.median((float[]) pixels, out, width, height, 1, options);
                filtered = out;
            }
        } catch (FastMedianException e) {
            failed = true;
            IJ.error(TITLE, e.getMessage());
            return;
        }
        nanos += System.nanoTime() - start;
        slices++;
        // Only the selection's bounding rectangle changes; ImageJ restores the rest of a
        // non-rectangular selection (SUPPORTS_MASKING).
        Rectangle r = ip.getRoi();
        for (int y = r.y; y < r.y + r.height; y++)
            System.arraycopy(filtered, y * width + r.x, pixels, y * width + r.x, r.width);
    }

    private void log() {
        String line = String.format(Locale.ROOT, "%s: radius %s, %d slice%s on %s in %.1f ms",
                TITLE, radius, slices, slices == 1 ? "" : "s", lastRun, nanos / 1e6);
        if (lastRun.backend() == Backend.CPU)
            line += "; no GPU used: " + FastMedian.cudaUnavailableReason();
        IJ.log(line);
    }
}
